import { NO_EXPANSION } from '../../query/glossary/query-expander';
import type { ExpandedTerm, QueryExpansion } from '../../query/glossary/query-expander';
import type { ExpansionWeights } from '../../query/analysis/text-search';
import type { QueryWord } from '../../query/analysis/query-words';
import type { StemsOf, TokenForms } from '../../query/analysis/stems';
import { TermDictionary } from '../../query/analysis/term-dictionary';
import { SHORT_TYPO_LENGTH, SHORT_TYPO_MAX_WORDS } from '../../query/analysis/typos';
import { trigramSimilarity } from '../../query/analysis/string-metrics';
import { foldWords } from '../../query/analysis/tokenizer';
import { QueryAnalyser, requiredTokens } from './query-analyser';
import type { AnalysedTerm } from './query-analyser';

const WEIGHTS: ExpansionWeights = {
  glossary: 0.3,
  synonym: 0.5,
  compound: 0.8,
  place: 0.9,
  within: 0.6,
  narrower: 0.5,
  related: 0.5,
};
const f = Math.fround;

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

/** A dictionary of terms and their document counts, as the text index's postings give them. */
const dictionaryOf = (counts: Iterable<readonly [string, number]>) =>
  TermDictionary.fromPostings(
    new Map(Array.from(counts, ([term, documents]) => [term, { ordinals: { length: documents } }])),
  );

const dictionary = dictionaryOf(Object.entries(TERMS));
const analyser = new QueryAnalyser(dictionary);
const analyse = (search: string, expansion: QueryExpansion = NO_EXPANSION, weights = WEIGHTS) =>
  analyser.analyse(foldWords(search), expansion, weights, stemsOf);
const word = (position: number): QueryWord => ({ kind: 'word', position });
const tail = (position: number): QueryWord => ({ kind: 'tail', position });
const pair = (position: number): QueryWord => ({ kind: 'pair', position });
const row = (word: QueryWord, term: string, weight: number, kind: AnalysedTerm['kind']): AnalysedTerm => ({
  word,
  term,
  documents: TERMS[term],
  weight: f(weight),
  kind,
});

describe('TermDictionary', () => {
  it('looks terms up; its words are the single-word terms', () => {
    expect(dictionary.size).toBe(Object.keys(TERMS).length);
    expect(dictionary.documentsOf('ski zermatt')).toBe(5);
    expect(dictionary.documentsOf('nowhere')).toBeUndefined();
    const words = Array.from({ length: dictionary.wordCount }, (_, id) => dictionary.wordAt(id));
    expect(words).toEqual(
      Object.keys(TERMS)
        .filter((term) => !term.includes(' '))
        .sort(),
    );
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

describe('QueryAnalyser', () => {
  it('finds a word and its stems exactly, and pairs of adjacent words', () => {
    expect(analyse('Ski Zermatt')).toEqual([
      row(word(1), 'ski', 1, 'exact'),
      row(pair(2), 'ski zermatt', 0.5, 'phrase'),
      row(word(2), 'zermatt', 1, 'exact'),
    ]);
    // "wanderungen" is found as its German stem; "skiing" pairs as its English one
    expect(analyse('Wanderungen')).toEqual([row(word(1), 'wander', 1, 'exact')]);
    expect(analyse('skiing, Zermatt!')).toEqual([
      row(word(1), 'ski', 1, 'exact'),
      row(pair(2), 'ski zermatt', 0.5, 'phrase'),
      row(word(2), 'zermatt', 1, 'exact'),
    ]);
  });

  it('weighs stop words 0.1 and pairs no stop word', () => {
    expect(analyse('Wanderung am See')).toEqual([
      row(word(1), 'wander', 1, 'exact'),
      row(word(2), 'am', 0.1, 'stop'),
      row(word(3), 'see', 1, 'exact'),
    ]);
  });

  it('skips a repeated word, but still pairs it', () => {
    expect(analyse('ski zermatt ski ski')).toEqual([
      row(word(1), 'ski', 1, 'exact'),
      row(pair(2), 'ski zermatt', 0.5, 'phrase'),
      row(word(2), 'zermatt', 1, 'exact'),
      row(pair(3), 'zermatt ski', 0.5, 'phrase'),
    ]);
  });

  it('reads the first 16 words only', () => {
    const search = `${'x '.repeat(15)}zermatt ski`;
    expect(analyse(search)).toEqual([row(word(16), 'zermatt', 1, 'exact')]);
  });

  it('corrects typos: the 5 closest, most frequent, then by term', () => {
    // within 1 edit of "strand" (6 letters); "stranded" is 2 away; equal counts by term
    expect(analyse('strand')).toEqual([
      row(word(1), 'stand', 0.6, 'typo'),
      row(word(1), 'strands', 0.6, 'typo'),
      row(word(1), 'strana', 0.6, 'typo'),
      row(word(1), 'sprand', 0.6, 'typo'),
      row(word(1), 'straand', 0.6, 'typo'),
    ]);
    // 9+ letters: 2 edits, the closest first whatever their counts
    expect(analyse('Dubrovnikk')).toEqual([
      row(word(1), 'dubrovnik', 0.6, 'typo'),
      row(word(1), 'dubrovnic', 0.4, 'typo'),
    ]);
    // 4 letters: one edit toward a much more frequent word only (analysis/typos.ts, shortTypo)
    expect(analyse('skii')).toEqual([row(word(1), 'ski', 0.6, 'typo')]);
    expect(analyse('baord')).toEqual([row(word(1), 'bord', 0.6, 'typo')]);
    // under 4 letters: no typo
    expect(analyse('skj')).toEqual([]);
  });

  it(`corrects a ${SHORT_TYPO_LENGTH}-letter word only in a search of at most ${SHORT_TYPO_MAX_WORDS} words, stop words aside`, () => {
    const corrected = (search: string) =>
      analyse(search)
        .filter((found) => found.kind === 'typo')
        .map((found) => found.term);
    // "skii" and other words the index holds, none of them a stop word
    const searchOf = (words: number) =>
      ['skii', 'zermatt', 'see', 'lac', 'bord', 'wander', 'ferien', 'winter'].slice(0, words).join(' ');
    expect(corrected('skii')).toEqual(['ski']);
    // at most SHORT_TYPO_MAX_WORDS words, stop words aside: a short search
    expect(corrected(searchOf(SHORT_TYPO_MAX_WORDS))).toEqual(['ski']);
    expect(corrected(`${searchOf(SHORT_TYPO_MAX_WORDS)} am the`)).toEqual(['ski']);
    // one more: a sentence, whose 4-letter words the index lacks are its words ("want", "voir")
    expect(corrected(searchOf(SHORT_TYPO_MAX_WORDS + 1))).toEqual([]);
    // the longer words' typos are corrected whatever the search's length
    expect(corrected(`dubrovnikk ${searchOf(SHORT_TYPO_MAX_WORDS + 1)}`)).toContain('dubrovnik');
  });

  it('lists the words that matched no form, stop words aside (explain: unmatched_words)', () => {
    const unmatched = (search: string, expansion: QueryExpansion = NO_EXPANSION) =>
      analyser.unmatchedWords(foldWords(search), analyse(search, expansion), expansion, stemsOf);
    expect(unmatched('ski qqxvz am see')).toEqual(['qqxvz']);
    // a correction, a stem, a split or an expansion is a form of the word
    expect(unmatched('skii Wanderungen plage')).toEqual([]);
    expect(unmatched('zzzq the zzzq xkcdv')).toEqual(['zzzq', 'xkcdv']);
    const expansion: QueryExpansion = {
      knownWords: ['strande'],
      terms: [{ token: 'strande', term: 'beach', kind: 'glossary' }],
    };
    expect(unmatched('strande xkcdv', expansion)).toEqual(['xkcdv']);
    // the other words of a place's name of several words are the place's
    expect(unmatched('qqxvz lago', { ...NO_EXPANSION, placeNameWords: ['qqxvz'] })).toEqual(['lago']);
  });

  it('splits a compound into two words of 4+ letters the index holds, the longest part first', () => {
    // "gletscher" + "wanderung" (found as its stem "wander"): the head as the word, the tail as its tail
    expect(analyse('Gletscherwanderung')).toEqual([
      row(word(1), 'gletscher', 0.8, 'compound'),
      row(tail(1), 'wander', 0.8, 'compound'),
    ]);
    // "winter" + "sport", never "winter(s)" + "port", whose longer part is no longer
    expect(analyse('Wintersport')).toEqual([
      row(word(1), 'winter', 0.8, 'compound'),
      row(tail(1), 'sport', 0.8, 'compound'),
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
    expect(analyse('strand skiferien', expansion)).toEqual([row(word(1), 'beach', 0.3, 'glossary')]);
    // nothing expanded (weighing 0): no word is known, each is corrected and split as any other
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
      row(word(2), 'kust', 1, 'exact'),
      row(word(1), 'beach', 0.5, 'synonym'),
      row(word(1), 'plag', 0.3, 'glossary'),
      row(word(3), 'du lac', 0.3, 'glossary'),
      row(word(3), 'bord du', 0.3, 'glossary'),
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
    const rows = new QueryAnalyser(dictionaryOf(Object.entries(many))).analyse(
      ['hotel'],
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
    expect(requiredTokens(foldWords('Ski am Seeufer'), NO_EXPANSION, WEIGHTS)).toEqual([
      'ski',
      'am',
      'seeufer',
    ]);
    // a word of 8+ letters: each head and tail of 4+ letters, a head also without a joint "s"
    expect(requiredTokens(foldWords('Wintersport'), NO_EXPANSION, WEIGHTS)).toEqual([
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
    expect(requiredTokens(foldWords('lake'), expansion, { ...WEIGHTS, synonym: 0 })).toEqual([
      'lake',
      'bord',
      'du',
      'lac',
    ]);
  });
});
