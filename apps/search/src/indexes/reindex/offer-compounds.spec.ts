import type { TokenForms } from '../../query/analysis/stems';
import { compoundPartsOf, isSplittable } from './offer-compounds';

/** German stems of the tokens the tests meet; every other token is its own stem. */
const GERMAN: Record<string, string> = {
  tages: 'tag',
  tage: 'tag',
  wandern: 'wand',
  ferien: 'feri',
  hutten: 'hutt',
};
const stems = (token: string): TokenForms => ({
  fr: token,
  de: GERMAN[token] ?? token,
  en: token,
  stop: false,
});

describe("offers' compounds split at index time (D-86)", () => {
  const vocabulary = new Set(['tag', 'wander', 'hutt', 'tessin', 'feri', 'winter', 'sport', 'well']);
  const holds = (term: string) => vocabulary.has(term);

  it("splits a lexeme into its head and tail as the index holds them (the query's splitter)", () => {
    expect(compoundPartsOf(['tageswander', 'huttenwander', 'tessinferi'], stems, holds)).toEqual([
      { lexeme: 'tageswander', part: 'tag' },
      { lexeme: 'tageswander', part: 'wander' },
      { lexeme: 'huttenwander', part: 'hutt' },
      { lexeme: 'huttenwander', part: 'wander' },
      { lexeme: 'tessinferi', part: 'tessin' },
      { lexeme: 'tessinferi', part: 'feri' },
    ]);
  });

  it('splits into real words only, from COMPOUND_MIN_LENGTH letters, and never a pair', () => {
    // "wintersport": never "winters|port"; "wellness": "ness" is no word of the index
    expect(compoundPartsOf(['wintersport', 'wellness', 'tagwand', 'tag wander'], stems, holds)).toEqual([
      { lexeme: 'wintersport', part: 'winter' },
      { lexeme: 'wintersport', part: 'sport' },
    ]);
    expect(isSplittable('tageswander')).toBe(true);
    expect(isSplittable('tagwand')).toBe(false);
    expect(isSplittable('tages wander')).toBe(false);
  });
});
