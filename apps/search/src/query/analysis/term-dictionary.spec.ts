import { ALL_FIELDS, DESTINATION_BIT, FIELD_BITS } from './similarity';
import { TermDictionary } from './term-dictionary';

const postings = (fields?: number[]) => ({
  ordinals: new Int32Array(fields?.length ?? 3),
  fields: fields && Uint8Array.from(fields),
});

describe('term dictionary: document counts and frequencies (D-86)', () => {
  const dictionary = TermDictionary.fromPostings(
    new Map([
      // the theme word: in one name, in two first categories (B without the destination), in one other category
      ['wand', postings([FIELD_BITS.A | FIELD_BITS.B, FIELD_BITS.B, FIELD_BITS.B, FIELD_BITS.C])],
      // a place: in destinations (B with the destination bit) and one description
      ['wallis', postings([FIELD_BITS.B | DESTINATION_BIT, FIELD_BITS.B | DESTINATION_BIT, FIELD_BITS.D])],
      // postings of a release before AddPostingFields, or their fields unknown
      ['see', postings([ALL_FIELDS, ALL_FIELDS])],
      ['berg', postings()],
    ]),
  );

  it('counts every offer holding a term as its documents', () => {
    expect(dictionary.documentsOf('wand')).toBe(4);
    expect(dictionary.documentsOf('wallis')).toBe(3);
    expect(dictionary.documentsOf('missing')).toBeUndefined();
  });

  it('counts as its frequency only the offers holding it outside their categories', () => {
    expect(dictionary.frequencyOf('wand')).toBe(1);
    expect(dictionary.frequencyOf('wallis')).toBe(3);
    expect(dictionary.frequencyOf('see')).toBe(2);
    expect(dictionary.frequencyOf('berg')).toBe(3);
    expect(dictionary.frequencyOf('missing')).toBeUndefined();
  });
});
