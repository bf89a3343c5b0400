import { editDistance, trigramsOf, trigramSimilarity } from './string-metrics';
import { compareCodePoints } from './tokenizer';

const f = Math.fround;

describe('pg_trgm trigrams and similarity', () => {
  it('pads each word with two spaces in front and one behind (show_trgm)', () => {
    // SELECT show_trgm('saas-fee') on PostgreSQL 15
    expect(trigramsOf('saas-fee').sort()).toEqual(
      ['  f', '  s', ' fe', ' sa', 'aas', 'as ', 'ee ', 'fee', 'saa'].sort(),
    );
    expect(trigramsOf('a')).toEqual(['  a', ' a ']);
    expect(trigramsOf('--')).toEqual([]);
  });

  it('gives pg_trgm similarity() as a float4', () => {
    // SELECT similarity(a, b) on PostgreSQL 15 (pg_trgm 1.6), values as psql prints a real
    const known: [string, string, number][] = [
      ['zurich', 'zuerich', 0.5],
      ['barcelona', 'barcleona', 0.42857143],
      ['santorini', 'santorni', 0.5833333],
      ['word', 'wrd', 0.2857143],
      ['ab', 'abc', 0.4],
      ['wanderung', 'wandrung', 0.5833333],
      ['dubrovnik', 'dubrovnick', 0.61538464],
      ['randonnee', 'randonee', 0.72727275],
      ['ski', 'skifahren', 0.27272728],
      ['x', 'y', 0],
    ];
    for (const [a, b, similarity] of known) {
      expect([a, b, trigramSimilarity(a, b)]).toEqual([a, b, f(similarity)]);
      expect(trigramSimilarity(b, a)).toBe(f(similarity));
    }
    expect(trigramSimilarity('', 'abc')).toBe(0);
  });
});

describe('editDistance (Damerau: optimal string alignment)', () => {
  it('counts edits of characters', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('abc', 'abc')).toBe(0);
    expect(editDistance('barcleona', 'barcelona')).toBe(1);
    // SELECT levenshtein('café', 'cafe') is 1: characters, not bytes
    expect(editDistance('café', 'cafe')).toBe(1);
    expect(editDistance('😀a', 'a')).toBe(1);
    // the glossary's and gazetteer's deletion index counts UTF-16 units
    expect(editDistance('😀a', 'a', 2, 'utf16')).toBe(2);
  });

  it('counts a swap of two adjacent characters as one edit, each substring edited once', () => {
    for (const [typed, meant] of [
      ['pargue', 'prague'],
      ['vneise', 'venise'],
      ['wlaes', 'wales'],
      ['zemratt', 'zermatt'],
      ['starnd', 'strand'],
      ['wadnern', 'wandern'],
      ['ab', 'ba'],
    ]) {
      expect([typed, editDistance(typed, meant)]).toEqual([typed, 1]);
      expect([meant, editDistance(meant, typed, 1)]).toEqual([meant, 1]);
    }
    // two swaps, a swap and a substitution: two edits; a swap is of adjacent characters only
    expect(editDistance('grindewlald', 'grindelwald')).toBe(1);
    expect(editDistance('abcd', 'badc')).toBe(2);
    expect(editDistance('abcd', 'bacx')).toBe(2);
    expect(editDistance('abc', 'cba')).toBe(2);
    // the optimal string alignment edits no substring twice (unrestricted Damerau would say 2)
    expect(editDistance('ca', 'abc')).toBe(3);
    // characters, not UTF-16 units: a swapped emoji is one edit
    expect(editDistance('😀a', 'a😀')).toBe(1);
    expect(editDistance('😀a', 'a😀', 2, 'utf16')).toBe(2);
  });

  it('stops past max, answering max + 1', () => {
    expect(editDistance('abcdef', 'uvwxyz', 2)).toBe(3);
    expect(editDistance('ab', 'abcdef', 1)).toBe(2);
    expect(editDistance('abcd', 'abed', 1)).toBe(1);
    expect(editDistance('abcd', 'badc', 1)).toBe(2);
    expect(editDistance('pargue', 'prague', 1)).toBe(1);
  });
});

describe('compareCodePoints (COLLATE "C")', () => {
  it('orders characters past U+FFFF after U+E000–U+FFFF, as UTF-8 bytes do', () => {
    expect(compareCodePoints('a', 'b')).toBeLessThan(0);
    expect(compareCodePoints('ab', 'a')).toBeGreaterThan(0);
    expect(compareCodePoints('\uffff', '😀')).toBeLessThan(0);
    expect('\uffff' < '😀').toBe(false);
  });
});
