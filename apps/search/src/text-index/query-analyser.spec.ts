import { NO_EXPANSION } from '../glossary/query-expander';
import type { ExpandedTerm, QueryExpansion } from '../glossary/query-expander';
import type { ExpansionWeights } from '../travels/travels-request';
import {
  compareCodePoints,
  levenshtein,
  QueryAnalyser,
  requiredTokens,
  StemCache,
  TermDictionary,
  trigramsOf,
  trigramSimilarity,
} from './query-analyser';
import type { AnalysedTerm, SqlQuery, StemsOf, TokenForms } from './query-analyser';

const WEIGHTS: ExpansionWeights = {
  glossary: 0.3,
  synonym: 0.5,
  compound: 0.8,
  place: 0.9,
  within: 0.6,
  narrower: 0.5,
};
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

describe('levenshtein (fuzzystrmatch)', () => {
  it('counts edits of characters', () => {
    expect(levenshtein('kitten', 'sitting')).toBe(3);
    expect(levenshtein('', 'abc')).toBe(3);
    expect(levenshtein('abc', 'abc')).toBe(0);
    expect(levenshtein('barcleona', 'barcelona')).toBe(2);
    // SELECT levenshtein('café', 'cafe') is 1: characters, not bytes
    expect(levenshtein('café', 'cafe')).toBe(1);
    expect(levenshtein('😀a', 'a')).toBe(1);
  });

  it('stops past max, answering max + 1', () => {
    expect(levenshtein('abcdef', 'uvwxyz', 2)).toBe(3);
    expect(levenshtein('ab', 'abcdef', 1)).toBe(2);
    expect(levenshtein('abcd', 'abed', 1)).toBe(1);
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

const TERMS: Record<string, number> = {
  ski: 50,
  zermatt: 10,
  'ski zermatt': 5,
  'zermatt ski': 2,
  wander: 30,
  see: 20,
  am: 100,
  the: 90,
  lac: 15,
  bord: 4,
  'bord du': 3,
  'du lac': 6,
  // typos of "strand"
  stand: 9,
  strands: 9,
  strana: 5,
  sprand: 3,
  straand: 2,
  stranx: 1,
  stranded: 7,
  // typos of "dubrovnikk"
  dubrovnik: 2,
  dubrovnic: 50,
  // compounds
  ferien: 7,
  gletscher: 4,
  winter: 9,
  sport: 8,
  port: 6,
  skifahr: 40,
  bergwander: 3,
  fernwander: 3,
  skiwander: 3,
  ostwander: 1,
  // expansions
  plag: 11,
  beach: 12,
  spiaggia: 8,
  kust: 6,
};

/** Snowball stems of the test: a stem given here, else the token itself; stop words. */
const STEMS: Record<string, Partial<TokenForms>> = {
  wanderung: { de: 'wander', fr: 'wanderung', en: 'wanderung' },
  wanderungen: { de: 'wander' },
  skiing: { en: 'ski' },
  plage: { fr: 'plag' },
  kuste: { de: 'kust' },
  am: { stop: true },
  the: { stop: true },
  du: { stop: true },
};
const stemsOf: StemsOf = (token) => ({ fr: null, de: null, en: null, stop: false, ...STEMS[token] });

const dictionary = TermDictionary.fromCounts(Object.entries(TERMS));
const analyser = new QueryAnalyser(dictionary);
const analyse = (search: string, expansion: QueryExpansion = NO_EXPANSION, weights = WEIGHTS) =>
  analyser.analyse(search, expansion, weights, stemsOf);
const row = (word: number, term: string, weight: number, kind: AnalysedTerm['kind']): AnalysedTerm => ({
  word,
  term,
  documents: TERMS[term],
  weight: f(weight),
  kind,
});

describe('TermDictionary', () => {
  it('looks terms up, by prefix and by suffix (single words only)', () => {
    expect(dictionary.size).toBe(Object.keys(TERMS).length);
    expect(dictionary.documentsOf('ski zermatt')).toBe(5);
    expect(dictionary.documentsOf('nowhere')).toBeUndefined();
    const { from, to } = dictionary.startingWith('ski');
    const prefixed = Array.from({ length: to - from }, (_, i) => dictionary.wordAt(from + i));
    expect(prefixed.sort()).toEqual(['ski', 'skifahr', 'skiwander']);
    const suffixed = dictionary.endingWith('wander');
    expect(suffixed.sort()).toEqual(['bergwander', 'fernwander', 'ostwander', 'skiwander', 'wander']);
    expect(dictionary.endingWith('xyz')).toHaveLength(0);
  });

  it('finds by trigram the words a full scan finds similar', () => {
    const words = Object.keys(TERMS).filter((term) => !term.includes(' '));
    for (const query of ['strand', 'dubrovnikk', 'wandern', 'skii', 'zzz', 'bord']) {
      const found = dictionary.similarWords(query).map((id) => dictionary.wordAt(id));
      const scanned = words.filter((word) => trigramSimilarity(word, query) >= 0.3);
      expect([query, found.sort()]).toEqual([query, scanned.sort()]);
    }
  });

  it('is built from the text index postings: documents are the postings lengths', () => {
    const fromPostings = TermDictionary.fromPostings(
      new Map([
        ['ski', { ordinals: Int32Array.of(0, 3, 7) }],
        ['ski zermatt', { ordinals: Int32Array.of(3) }],
      ]),
    );
    expect(fromPostings.size).toBe(2);
    expect(fromPostings.wordCount).toBe(1);
    expect(fromPostings.documentsOf('ski')).toBe(3);
    expect(fromPostings.documentsOf('ski zermatt')).toBe(1);
  });
});

describe('QueryAnalyser (travel_query_terms)', () => {
  it('finds a word and its stems exactly, and pairs of adjacent words', () => {
    expect(analyse('Ski Zermatt')).toEqual([
      row(1, 'ski', 1, 'exact'),
      row(1002, 'ski zermatt', 0.5, 'phrase'),
      row(2, 'zermatt', 1, 'exact'),
    ]);
    // "wanderungen" is found as its German stem; "skiing" pairs as its English one
    expect(analyse('Wanderungen')).toEqual([row(1, 'wander', 1, 'exact')]);
    expect(analyse('skiing, Zermatt!')).toEqual([
      row(1, 'ski', 1, 'exact'),
      row(1002, 'ski zermatt', 0.5, 'phrase'),
      row(2, 'zermatt', 1, 'exact'),
    ]);
  });

  it('weighs stop words 0.1 and pairs no stop word', () => {
    expect(analyse('Wanderung am See')).toEqual([
      row(1, 'wander', 1, 'exact'),
      row(2, 'am', 0.1, 'stop'),
      row(3, 'see', 1, 'exact'),
    ]);
  });

  it('skips a repeated word, but still pairs it', () => {
    expect(analyse('ski zermatt ski ski')).toEqual([
      row(1, 'ski', 1, 'exact'),
      row(1002, 'ski zermatt', 0.5, 'phrase'),
      row(2, 'zermatt', 1, 'exact'),
      row(1003, 'zermatt ski', 0.5, 'phrase'),
    ]);
  });

  it('reads the first 16 words only', () => {
    const search = `${'x '.repeat(15)}zermatt ski`;
    expect(analyse(search)).toEqual([row(16, 'zermatt', 1, 'exact')]);
  });

  it('corrects typos: the 5 closest, most frequent, then by term', () => {
    // within 1 edit of "strand" (6 letters); "stranded" is 2 away; equal counts by term
    expect(analyse('strand')).toEqual([
      row(1, 'stand', 0.6, 'typo'),
      row(1, 'strands', 0.6, 'typo'),
      row(1, 'strana', 0.6, 'typo'),
      row(1, 'sprand', 0.6, 'typo'),
      row(1, 'straand', 0.6, 'typo'),
    ]);
    // 9+ letters: 2 edits, the closest first whatever their counts
    expect(analyse('Dubrovnikk')).toEqual([
      row(1, 'dubrovnik', 0.6, 'typo'),
      row(1, 'dubrovnic', 0.4, 'typo'),
    ]);
    // under 5 letters: no typo
    expect(analyse('skii')).toEqual([]);
  });

  it('splits a compound into two words of 4+ letters the index holds, the longest part first', () => {
    // "gletscher" + "wanderung" (found as its stem "wander"): the head as the word, the tail as -word
    expect(analyse('Gletscherwanderung')).toEqual([
      row(1, 'gletscher', 0.8, 'compound'),
      row(-1, 'wander', 0.8, 'compound'),
    ]);
    // "winter" + "sport", never "winter(s)" + "port", whose longer part is no longer
    expect(analyse('Wintersport')).toEqual([
      row(1, 'winter', 0.8, 'compound'),
      row(-1, 'sport', 0.8, 'compound'),
    ]);
    // no part of 3 letters ("see", "ski"), nothing guessed from the start or end of a word
    expect(analyse('Seewanderung')).toEqual([]);
    expect(analyse('Skiferien')).toEqual([]);
    expect(analyse('skifaferien')).toEqual([]);
  });

  it('neither corrects nor splits a word the glossary knows, when something is expanded', () => {
    const expansion: QueryExpansion = {
      knownWords: ['strand', 'skiferien'],
      terms: [{ token: 'strand', term: 'beach', kind: 'glossary' }],
    };
    expect(analyse('strand skiferien', expansion)).toEqual([row(1, 'beach', 0.3, 'glossary')]);
    // nothing expanded (weighing 0): the first overload, which knows no word
    const unweighted = { ...WEIGHTS, glossary: 0 };
    expect(analyse('strand', expansion, unweighted).map((term) => term.kind)).toEqual(Array(5).fill('typo'));
  });

  it('expands: forms of each expansion but the word own, the heaviest kind, at most 12 a word', () => {
    const terms: ExpandedTerm[] = [
      { token: 'strand', term: 'plage', kind: 'glossary' },
      { token: 'strand', term: 'beach', kind: 'glossary' },
      { token: 'strand', term: 'beach', kind: 'synonym' },
      { token: 'strand', term: 'strand', kind: 'glossary' },
      { token: 'strand', term: 'nowhere', kind: 'glossary' },
      { token: 'lake', term: 'bord du lac', kind: 'glossary' },
      { token: 'absent', term: 'spiaggia', kind: 'glossary' },
      { token: 'kuste', term: 'kust', kind: 'compound' },
    ];
    // "kust", a form of "kuste" (its German stem), is found as the word, not as its expansion
    expect(analyse('strand kuste lake', { knownWords: ['strand', 'kuste', 'lake'], terms })).toEqual([
      row(2, 'kust', 1, 'exact'),
      row(1, 'beach', 0.5, 'synonym'),
      row(1, 'plag', 0.3, 'glossary'),
      row(3, 'du lac', 0.3, 'glossary'),
      row(3, 'bord du', 0.3, 'glossary'),
    ]);
  });

  it('keeps at most 12 expanded terms a word: heaviest, most frequent, then by term', () => {
    const many: Record<string, number> = { hotel: 100 };
    const terms: ExpandedTerm[] = [];
    for (let i = 0; i < 15; i++) {
      many[`word${String(i).padStart(2, '0')}`] = i % 4;
      terms.push({
        token: 'hotel',
        term: `word${String(i).padStart(2, '0')}`,
        kind: i === 14 ? 'synonym' : 'glossary',
      });
    }
    const rows = new QueryAnalyser(TermDictionary.fromCounts(Object.entries(many))).analyse(
      'hotel',
      { knownWords: ['hotel'], terms },
      WEIGHTS,
      stemsOf,
    );
    expect(rows.map((term) => term.term)).toEqual([
      'hotel',
      'word14',
      'word03',
      'word07',
      'word11',
      'word02',
      'word06',
      'word10',
      'word01',
      'word05',
      'word09',
      'word13',
      'word00',
    ]);
  });
});

describe('requiredTokens', () => {
  it('lists the words, the parts of 8+ letter words, and the expansions words', () => {
    expect(requiredTokens('Ski am Seeufer', NO_EXPANSION, WEIGHTS)).toEqual(['ski', 'am', 'seeufer']);
    // a word of 8+ letters: each head and tail of 4+ letters, a head also without a joint "s"
    expect(requiredTokens('Wintersport', NO_EXPANSION, WEIGHTS)).toEqual([
      'wintersport',
      'wint',
      'ersport',
      'winte',
      'rsport',
      'winter',
      'sport',
      'winters',
      'port',
    ]);
    const expansion: QueryExpansion = {
      knownWords: ['lake'],
      terms: [
        { token: 'lake', term: 'bord du lac', kind: 'glossary' },
        { token: 'lake', term: 'meer', kind: 'synonym' },
      ],
    };
    expect(requiredTokens('lake', expansion, { ...WEIGHTS, synonym: 0 })).toEqual([
      'lake',
      'bord',
      'du',
      'lac',
    ]);
  });
});

describe('StemCache', () => {
  const stemRows = (tokens: string[]) =>
    tokens.map((token) => ({ token, fr: `${token}-fr`, de: null, en: token, stop: token === 'the' }));

  it('fetches the tokens not cached in one statement, then none', async () => {
    const statements: unknown[][] = [];
    const query: SqlQuery = async (_text, values) => {
      statements.push(values);
      return stemRows(values[0] as string[]);
    };
    const cache = new StemCache(query);
    const stems = await cache.formsOf(['ski', 'the', 'ski']);
    expect(stems('ski')).toEqual({ fr: 'ski-fr', de: null, en: 'ski', stop: false });
    expect(stems('the').stop).toBe(true);
    expect(() => stems('other')).toThrow(/requiredTokens/);
    await cache.formsOf(['the', 'lake']);
    await cache.formsOf(['lake', 'ski']);
    expect(statements).toEqual([[['ski', 'the']], [['lake']]]);
    expect(cache.statements).toBe(2);
  });

  it('shares a fetch between concurrent searches, and answers for tokens evicted since', async () => {
    let calls = 0;
    const query: SqlQuery = async (_text, values) => {
      calls++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return stemRows(values[0] as string[]);
    };
    const cache = new StemCache(query, 2);
    const [a, b] = await Promise.all([cache.formsOf(['a', 'b', 'c']), cache.formsOf(['a', 'b'])]);
    expect(calls).toBe(1);
    expect(cache.size).toBe(2);
    expect(a('a').fr).toBe('a-fr');
    expect(b('b').fr).toBe('b-fr');
  });
});
