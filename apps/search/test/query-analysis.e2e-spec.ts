import { isPhraseWithStopWord, loadStopWords } from '../src/query/glossary/stop-words';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { plainToInstance } from 'class-transformer';
import { HOSTILE_SEARCHES } from '../src/bench/hostile-searches';
import type { CatalogueRecord } from '../src/catalogue/catalogue-record';
import { MAX_ANALYSED_WORD_LENGTH } from '../src/query/analysis/analysis-budget';
import { COMPOUND_WEIGHT, MIN_PART } from '../src/query/analysis/compounds';
import { foldWords } from '../src/query/analysis/tokenizer';
import { readQueryText } from '../src/query/analysis/analysed-query';
import { SHORT_TYPO_LENGTH, TYPO_MIN_LENGTH, TWO_EDITS_MIN_LENGTH } from '../src/query/analysis/typos';
import { QueryExpansionService } from '../src/query/glossary/query-expansion.service';
import type { AnalysedTerm } from '../src/indexes/text-index/query-analyser';
import { EXPANSIONS_PER_WORD, QUERY_WORDS } from '../src/query/analysis/query-limits';
import { TextIndexService } from '../src/indexes/text-index/text-index.service';
import { TravelsQueryDto } from '../src/http/travels/dto/travels-query.dto';
import { toTravelsRequest } from '../src/http/travels/travels-request';
import type { ExpansionWeights } from '../src/query/analysis/text-search';
import type { RankingRequest } from '../src/request/listing-request';
import { catalogueFolder } from './catalogue-fixtures';
import { createCatalogueTestApp, TestApp } from './test-app';

/**
 * Golden test of the query analysis (src/indexes/text-index/query-analyser.ts, src/query/analysis/, the
 * glossary's and the gazetteer's expansions): the terms the service analyses each search of
 * SEARCHES into, against the multilingual catalogue's index (src/relevance/
 * multilingual-catalogue.ndjson, 538 offers in four languages) with the synonyms below, compared
 * with query-analysis.golden.json: per search, each term's query word, kind, term, weight and
 * offers, in the analyser's order. The describe blocks after it hold each rule to its own
 * expectation.
 *
 * The stems are the database's own (Snowball), and two Snowball versions are in use: PostgreSQL's
 * servers (15 to 17) keep German words in -eln whole ("segeln", "Inseln"), the embedded database
 * (PGlite) takes their n off ("segel", "insel"). Each has its golden file, chosen by how the
 * database stems "segeln" (GOLDEN_BY_STEMMER); CI runs the test on both (.ci/run).
 *
 * A change of the analysis that is meant changes the golden files: regenerate both with
 *   UPDATE_GOLDEN=1 TEST_DATABASE_URL=… pnpm --filter search test:e2e test/query-analysis.e2e-spec.ts
 *   UPDATE_GOLDEN=1 pnpm --filter search test:e2e test/query-analysis.e2e-spec.ts   # embedded
 * and review their diffs. Without UPDATE_GOLDEN the test never writes: a missing file, a search
 * missing from it or a term that differs fails.
 */
const GOLDEN_BY_STEMMER: Record<string, string> = {
  "'segeln':1": join(__dirname, 'query-analysis.golden.json'),
  "'segel':1": join(__dirname, 'query-analysis.golden.embedded.json'),
};
const CATALOGUE = join(__dirname, '..', 'src', 'relevance', 'multilingual-catalogue.ndjson');

/** One of the benchmark's hostile searches (src/bench/hostile-searches.ts), by its name. */
function hostile(name: string): string {
  const search = HOSTILE_SEARCHES.find(([hostileName]) => hostileName === name);
  if (!search) throw new Error(`no hostile search "${name}"`);
  return search[1];
}

/** Searches as travellers type them. */
const SEARCHES: Record<string, string[]> = {
  'exact words': [
    'ski',
    'wellness',
    'Zermatt',
    'croisière',
    'Wandern',
    'spa',
    'yoga',
    'glamping',
    'hotel',
    'vela',
  ],
  'short searches': ['a', 'de', 'the', 'sea', 'vtt', 'Ski!', 'lac', 'spa week'],
  'accents and case': [
    'Zürich',
    'zurich',
    'ZUERICH',
    'randonnée',
    'randonnee',
    'Genève',
    'Graubünden',
    'Côte d’Azur',
    'Straße',
    'Île-de-France',
    'crème brûlée',
    'Kraków',
  ],
  'typos, one and two edits': [
    'Zermat',
    'Santorni',
    'wandrung',
    'Dolomitten',
    'randonee',
    'Grindelwlad',
    'Lauterbrunen',
    'wellnes',
    'Engadinn',
    'Barcleona',
    'Meditteranean',
    'acommodation',
    'schneeschuwanderung',
    'lakr',
  ],
  'swapped letters': ['Zemratt', 'Mountians', 'wnadern', 'croisiree', 'hikign', 'Sradinien', 'Koriska'],
  compounds: [
    'Skiferien',
    'Wintersport',
    'Wintersportferien',
    'Segelurlaub',
    'Bergwanderung',
    'Bergwandern',
    'Seewanderung',
    'Gletscherwanderung',
    'Schneeschuhwanderung',
    'Wellnesswochenende',
    'Familienskiferien',
    'Strandhotel',
    'Museumsbesuche',
    'Radwanderung Bodensee',
    'Inselhüpfen Kykladen',
    'Weinreise',
  ],
  'pairs and phrases': [
    'ski holiday',
    'lake como',
    'beach Naxos',
    'wine tasting lake geneva',
    'city break Praha',
    'northern lights',
    'bord du lac',
    'Cinque Terre',
    'settimana bianca',
    'mit dem zug durch die alpen',
  ],
  'stop words': [
    'Wanderung am See',
    'vacances au bord de la mer',
    'in the mountains',
    'the the the',
    'de la',
    'am',
    'ski in Zermatt',
    'ferien am see',
  ],
  places: [
    'Wallis',
    'Valais',
    'vallese',
    'Korsika',
    'lago dei quattro cantoni',
    'Südtirol',
    'Haut-Adige',
    'St. Moritz',
    'Lac Léman',
    'Bergen',
    'Nice',
    'Zug',
    'Engadin',
    'Tessin',
    'Kanarische Inseln',
    'Sardaigne',
  ],
  'several languages': [
    'skiferien im wallis',
    'ski holiday valais',
    'sciare in vallese',
    'strand korsika',
    'vacanze al mare in corsica',
    'randonnée en Corse',
    'wandern im tessin',
    'raquettes à neige grisons',
    'velo lac de constance',
    'weinreise piemont',
    'week-end à Vienne',
    'aurores boréales laponie',
    'Nordlichter Norwegen',
    'sport invernali con bambini',
    'water sports lake garda',
    'terme e benessere',
    'family holiday in the mountains',
  ],
  'long sentences': [
    'hiking the alps with family',
    'croisiere sur le lac leman avec degustation de vin',
    'a relaxing weekend with wellness and good food in the mountains',
    'Skiurlaub mit der ganzen Familie in den Bergen von Tirol',
    'we would like a quiet family holiday by the lake with hiking cycling swimming good food wine tasting and a spa for two weeks in summer',
    'Wir suchen eine ruhige Ferienwohnung am See mit Wanderungen Radtouren Weinprobe Wellness und gutem Essen für zwei Wochen im Sommer',
    'vorremmo una settimana di vacanza in montagna con escursioni e buona cucina per tutta la famiglia',
  ],
  'repeated words and digits': [
    'ski ski ski',
    'Zermatt zermatt ZERMATT',
    'lake hiking lake hiking',
    'ski 2026',
    '7 nights in Crete',
    '4x4 safari',
    '2',
  ],
  'hostile inputs': [
    '!!!',
    '"beach" & (sun)',
    "'; DROP TABLE travel_offers; --",
    'ski!!!zermatt',
    'e-bike',
    'ski/snowboard',
    '🏔️ ski ⛷️',
    'xyzzyqqq',
    'plumbixtrazon',
    'vvxqq jjkw',
    'ß'.repeat(40),
    'wanderung' + '\u0301'.repeat(20),
    'a b c d e f g h i j k l m n o p q r s t',
    ...['one 500-letter word', 'a real compound repeated', 'words of 9 letters', 'misspelt places'].map(
      hostile,
    ),
  ],
};

/** Operator synonyms (SEARCH_SYNONYMS_SOURCE), overlapping the glossary. */
const SYNONYMS = [
  'hiking, trekking, wandern, randonnee',
  'beach, strand, plage, lido',
  'glamping => camping, zelt, luxury camping',
].join('\n');

/** The expansions' weights: the configuration's defaults (query-expansion.settings.ts), written out. */
const WEIGHTS: ExpansionWeights = {
  glossary: 0.9,
  synonym: 0.9,
  compound: COMPOUND_WEIGHT,
  place: 0.9,
  within: 0.6,
  narrower: 0.5,
  related: 0.5,
};

/**
 * A term's query word as the golden file writes it: "word 2", "tail of 2" (a compound's second
 * part), "pair 1-2" (the pair of adjacent words 1 and 2). The one place that reads how the
 * analysis tells query words apart (src/query/analysis/query-words.ts).
 */
function queryWordOf(word: AnalysedTerm['word']): string {
  switch (word.kind) {
    case 'word':
      return `word ${word.position}`;
    case 'tail':
      return `tail of ${word.position}`;
    case 'pair':
      return `pair ${word.position - 1}-${word.position}`;
  }
}

/** A float4 weight by its shortest decimal form (`0.6`, not 0.6000000238418579). */
function weightOf(weight: number): string {
  if (Math.fround(weight) !== weight) return `${weight} (not a float4)`;
  for (let digits = 1; digits < 9; digits++) {
    const shortest = Number(weight.toPrecision(digits));
    if (Math.fround(shortest) === weight) return String(shortest);
  }
  return String(weight);
}

/** A term as a line of the golden file: query word, kind, term, weight, offers holding it. */
const lineOf = (term: AnalysedTerm) =>
  `${queryWordOf(term.word)} | ${term.kind} | ${term.term} | ${weightOf(term.weight)} | ${term.documents}`;

interface Golden {
  search: string;
  terms: string[];
}

/** The golden file's analyses, or undefined when there is none. */
function readGolden(path: string): Golden[] | undefined {
  if (!existsSync(path)) return undefined;
  return JSON.parse(readFileSync(path, 'utf8')) as Golden[];
}

describe('query analysis (golden: test/query-analysis.golden*.json)', () => {
  let t: TestApp;
  let folder: Awaited<ReturnType<typeof catalogueFolder>>;
  let base: RankingRequest;
  let expansions: QueryExpansionService;
  /** The golden file of the database's stemmer. */
  let goldenPath: string;
  const searches = Object.values(SEARCHES).flat();
  /** Each search's analysis with WEIGHTS, by search. */
  const analysed = new Map<string, AnalysedTerm[]>();

  /** The service's terms of a search: expanded, analysed and weighed as GET /travels does. */
  const analyse = async (search: string, weights = WEIGHTS): Promise<AnalysedTerm[]> => {
    const request: RankingRequest = {
      ...base,
      search,
      tuning: { ...base.tuning, expansionWeights: weights },
    };
    const terms = await t.termsOf(request);
    return terms.map(({ word, term, documents, weight, kind }) => ({ word, term, documents, weight, kind }));
  };
  const termsOf = (search: string) => {
    const terms = analysed.get(search);
    if (!terms) throw new Error(`"${search}" is not one of SEARCHES`);
    return terms;
  };
  const linesOf = (search: string) => termsOf(search).map(lineOf);

  beforeAll(async () => {
    folder = await catalogueFolder();
    const synonyms = await folder.file('synonyms.txt', `${SYNONYMS}\n`);
    const records = readFileSync(CATALOGUE, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as CatalogueRecord);
    t = await createCatalogueTestApp(records, { SEARCH_SYNONYMS_SOURCE: synonyms });
    await t.app.get(TextIndexService).loaded();
    expansions = t.app.get(QueryExpansionService);
    const [{ stems }] = (await t.dataSource.query(
      "SELECT to_tsvector('german', 'segeln')::text AS stems",
    )) as { stems: string }[];
    const path = GOLDEN_BY_STEMMER[stems];
    if (!path) throw new Error(`no golden file for a German Snowball stemming "segeln" to ${stems}`);
    goldenPath = path;
    const request = toTravelsRequest(plainToInstance(TravelsQueryDto, { search: 'ski' }), t.config);
    if (request.branch !== 'search') throw new Error('a search was expected');
    base = request;
    for (const search of searches) analysed.set(search, await analyse(search));
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await folder?.cleanup();
  });

  it('lists each search once', () => {
    expect(new Set(searches).size).toBe(searches.length);
  });

  it('analyses every search into the golden terms', () => {
    const current: Golden[] = searches.map((search) => ({ search, terms: linesOf(search) }));
    if (process.env.UPDATE_GOLDEN === '1') {
      writeFileSync(goldenPath, `${JSON.stringify(current, null, 2)}\n`);
      return;
    }
    const golden = readGolden(goldenPath);
    if (!golden) throw new Error(`${goldenPath} is missing: run this test with UPDATE_GOLDEN=1 to write it`);
    const goldenTerms = new Map(golden.map((entry) => [entry.search, entry.terms]));
    const differences = current
      .filter((entry) => JSON.stringify(goldenTerms.get(entry.search)) !== JSON.stringify(entry.terms))
      .map((entry) => ({
        search: entry.search,
        golden: goldenTerms.get(entry.search),
        analysed: entry.terms,
      }));
    // a difference meant: UPDATE_GOLDEN=1, then review the golden file's diff
    expect(differences).toEqual([]);
    expect(golden.map((entry) => entry.search)).toEqual(searches);
  });

  it('holds the terms and document counts of search_terms in its dictionary', async () => {
    const { dictionary } = (await t.app.get(TextIndexService).loaded()).analyser;
    const rows = (await t.dataSource.query('SELECT term, documents FROM search_terms')) as {
      term: string;
      documents: number;
    }[];
    expect(dictionary.size).toBe(rows.length);
    expect(rows.filter((row) => dictionary.documentsOf(row.term) !== row.documents)).toEqual([]);
  });

  describe("a query word's own forms", () => {
    it('looks a word up as itself and its French, German and English stems (`exact`, weight 1)', () => {
      expect(linesOf('Wandern')[0]).toBe('word 1 | exact | wand | 1 | 41');
      expect(linesOf('wellness').slice(0, 2)).toEqual([
        'word 1 | exact | wellness | 1 | 19',
        'word 1 | exact | well | 1 | 23',
      ]);
    });

    it('looks a stop word up as its forms (`stop`, weight 0.1)', () => {
      expect(linesOf('the the the')).toEqual(['word 1 | stop | the | 0.1 | 116']);
      expect(linesOf('in the mountains').slice(0, 3)).toEqual([
        'word 1 | stop | in | 0.1 | 196',
        'word 2 | stop | the | 0.1 | 116',
        'word 3 | exact | mountain | 1 | 16',
      ]);
    });

    it('skips a repeated word, not the pairs it makes', () => {
      expect(linesOf('Zermatt zermatt ZERMATT')).toEqual(linesOf('Zermatt'));
      const repeated = linesOf('ski ski ski');
      expect(repeated.filter((line) => !line.startsWith('pair '))).toEqual(linesOf('ski'));
      expect(repeated.filter((line) => line.startsWith('pair '))).toEqual([
        'pair 1-2 | phrase | ski ski | 0.5 | 13',
        'pair 2-3 | phrase | ski ski | 0.5 | 13',
      ]);
    });
  });

  describe('pairs of adjacent words (`phrase`)', () => {
    it('looks each pair up as the index pairs it (weight 0.5), before the second word', () => {
      expect(linesOf('ski holiday').slice(0, 3)).toEqual([
        'word 1 | exact | ski | 1 | 56',
        'pair 1-2 | phrase | ski holiday | 0.5 | 13',
        'word 2 | exact | holiday | 1 | 38',
      ]);
      expect(linesOf('lago dei quattro cantoni').filter((line) => line.startsWith('pair '))).toEqual([
        'pair 1-2 | phrase | lago dei | 0.5 | 1',
        'pair 2-3 | phrase | dei quattro | 0.5 | 1',
        'pair 3-4 | phrase | quattro cantoni | 0.5 | 1',
      ]);
    });

    it('pairs no stop word', () => {
      for (const search of ['Wanderung am See', 'vacances au bord de la mer', 'ski in Zermatt'])
        expect(linesOf(search).filter((line) => line.startsWith('pair '))).toEqual([]);
    });
  });

  describe('typos (analysis/typos.ts)', () => {
    const typos = (search: string) =>
      termsOf(search)
        .filter((term) => term.kind === 'typo')
        .map(lineOf);

    it(`corrects a word of ${TYPO_MIN_LENGTH}+ letters the index lacks within one edit (weight 0.6)`, () => {
      expect(typos('wellnes')).toEqual([
        'word 1 | typo | well | 0.6 | 23',
        'word 1 | typo | wellness | 0.6 | 19',
      ]);
      expect(typos('randonee')).toEqual(['word 1 | typo | randonne | 0.6 | 18']);
    });

    it(`corrects a word of ${TWO_EDITS_MIN_LENGTH}+ letters within two edits (weight 0.4)`, () => {
      expect(typos('Schneeschuhwanderung')).toEqual(['word 1 | typo | schneeschuhwand | 0.4 | 1']);
    });

    it('counts two adjacent letters swapped as one edit (weight 0.6), places as words', () => {
      expect(typos('Mountians')).toEqual(['word 1 | typo | mountain | 0.6 | 16']);
      expect(typos('croisiree')).toEqual(['word 1 | typo | croisier | 0.6 | 13']);
      expect(typos('hikign')).toEqual(['word 1 | typo | hiking | 0.6 | 67']);
      // the glossary's corrector too: `wnadern` gains the words of wandern's concept
      expect(linesOf('wnadern')).toEqual(expect.arrayContaining(['word 1 | glossary | walk | 0.9 | 27']));
      // a misspelt place is the place (the gazetteer's corrector): its names, not typos
      expect(linesOf('Zemratt')).toEqual(['word 1 | place | zermatt | 0.9 | 9']);
      expect(linesOf('Koriska')).toEqual(
        expect.arrayContaining(['word 1 | place | corsica | 0.9 | 6', 'word 1 | place | korsika | 0.9 | 4']),
      );
    });

    it(`corrects a word of ${SHORT_TYPO_LENGTH} letters toward a much more frequent word only`, () => {
      expect(typos('lakr')).toEqual(['word 1 | typo | lake | 0.6 | 21']);
      // `like` and `good`, words the catalogue lacks: lake is not far enough ahead of line, and
      // food's first letter differs
      const sentence =
        'we would like a quiet family holiday by the lake with hiking cycling swimming good food wine tasting and a spa for two weeks in summer';
      const ofWords =
        (...words: string[]) =>
        (line: string) =>
          words.some((word) => line.startsWith(`${word} |`));
      expect(typos(sentence).filter(ofWords('word 3', 'word 15'))).toEqual([]);
    });
  });

  describe('compounds (analysis/compounds.ts)', () => {
    /** The analysis without any expansion: the text side's own rules alone. */
    const NONE: ExpansionWeights = {
      glossary: 0,
      synonym: 0,
      compound: 0,
      place: 0,
      within: 0,
      narrower: 0,
      related: 0,
    };
    const own = async (search: string) => (await analyse(search, NONE)).map(lineOf);

    it(`splits a word the index lacks into two words of ${MIN_PART}+ letters it holds (weight 0.8): the head for the word, the tail for its tail`, async () => {
      // the offers holding "wander" differ by a few between the two Snowball versions (above)
      const [head, tailPart, ...rest] = await own('Bergwanderung');
      expect([head, rest]).toEqual(['word 1 | compound | berg | 0.8 | 13', []]);
      expect(tailPart).toMatch(/^tail of 1 \| compound \| wander \| 0\.8 \| \d+$/);
      // a word the glossary does not know is split with its expansions on too
      expect(linesOf('Bergwandern').slice(0, 2)).toEqual([
        'word 1 | compound | berg | 0.8 | 13',
        'tail of 1 | compound | wand | 0.8 | 41',
      ]);
    });

    it('takes the cut whose longer part is longest', async () => {
      expect(await own('Wintersportferien')).toEqual([
        'word 1 | compound | wintersport | 0.8 | 1',
        'tail of 1 | compound | feri | 0.8 | 35',
      ]);
    });

    it(`splits into real words only: a word the index holds stays whole, a part of 3 letters is none`, async () => {
      expect(await own('Wintersport')).toEqual(['word 1 | exact | wintersport | 1 | 1']);
      expect(await own('Seewanderung')).toEqual([]);
    });

    it('leaves a word the glossary knows to its expansions', async () => {
      expect(expansions.expand(readQueryText('Bergwanderung')).knownWords).toContain('bergwanderung');
      expect(termsOf('Bergwanderung').filter((term) => term.kind === 'compound')).toEqual([]);
    });
  });

  describe('expansions (the glossary, the synonyms, the gazetteer)', () => {
    const expansionKinds = new Set(['glossary', 'synonym', 'place', 'within', 'narrower', 'related']);

    it("counts a compound's second concept for its tail", () => {
      expect(linesOf('Bergwanderung')).toContain('tail of 1 | glossary | hiking | 0.9 | 67');
      expect(linesOf('Bergwanderung')).toContain('word 1 | glossary | mountain | 0.9 | 16');
    });

    it("never repeats one of its query word's own forms", () => {
      for (const search of searches) {
        const terms = termsOf(search);
        const own = new Set(
          terms
            .filter((term) => ['exact', 'stop'].includes(term.kind))
            .map((term) => queryWordOf(term.word) + term.term),
        );
        const repeated = terms.filter(
          (term) => expansionKinds.has(term.kind) && own.has(queryWordOf(term.word) + term.term),
        );
        expect({ search, repeated }).toEqual({ search, repeated: [] });
      }
    });

    it('keeps per query word and term the highest weight; of equal weights, the kind given first', async () => {
      // "strand" is the synonyms' word for "beach", and the stem of the glossary's "strande"
      const given = expansions
        .expand(readQueryText('beach Naxos'))
        .terms.map((term) => `${term.kind} ${term.term}`);
      expect(given.indexOf('synonym strand')).toBeLessThan(given.indexOf('glossary strande'));
      expect(linesOf('beach Naxos')).toContain('word 1 | synonym | strand | 0.9 | 13');
      const glossaryFirst = (await analyse('beach Naxos', { ...WEIGHTS, glossary: 0.95 })).map(lineOf);
      expect(glossaryFirst).toContain('word 1 | glossary | strand | 0.95 | 13');
    });

    it('leaves a kind weighing 0 out', async () => {
      const withoutTowns = (await analyse('Wallis', { ...WEIGHTS, within: 0 })).map(lineOf);
      expect(withoutTowns).toEqual(linesOf('Wallis').filter((line) => !line.includes(' | within | ')));
      expect(withoutTowns.length).toBeLessThan(linesOf('Wallis').length);
    });

    it('expands to no phrase holding a stop word ("vacances à la neige" no longer reaches Wintersport)', () => {
      const stopWords = loadStopWords();
      const expandedKinds = new Set(['glossary', 'place', 'within', 'narrower', 'related']);
      for (const search of searches) {
        const phrases = termsOf(search)
          .filter((term) => expandedKinds.has(term.kind) && isPhraseWithStopWord(term.term, stopWords))
          .map((term) => term.term);
        expect({ search, phrases }).toEqual({ search, phrases: [] });
      }
      const terms = termsOf('Wintersport').map((term) => term.term);
      for (const pair of ['vacanc a', 'la neig', 'a la']) expect(terms).not.toContain(pair);
    });

    it(`gains at most ${EXPANSIONS_PER_WORD} terms of the glossary and the synonyms per query word`, () => {
      const counts = new Map<string, number>();
      for (const search of searches) {
        for (const term of termsOf(search)) {
          if (term.kind !== 'glossary' && term.kind !== 'synonym') continue;
          const key = `${search} | ${queryWordOf(term.word)}`;
          counts.set(key, (counts.get(key) ?? 0) + 1);
        }
      }
      expect(Math.max(...counts.values())).toBe(EXPANSIONS_PER_WORD);
    });
  });

  describe("a search's limits (analysis/query-limits.ts, analysis/analysis-budget.ts)", () => {
    it(`reads the first ${QUERY_WORDS} words`, () => {
      const search = SEARCHES['long sentences'][4];
      expect(foldWords(search)[QUERY_WORDS]).toBe('wine');
      const lines = linesOf(search);
      expect(lines).toContain(`word ${QUERY_WORDS} | exact | food | 1 | 44`);
      expect(lines.filter((line) => line.startsWith(`word ${QUERY_WORDS + 1} `))).toEqual([]);
      expect(lines).not.toContain(`word ${QUERY_WORDS + 1} | exact | wine | 1 | 16`);
    });

    it(`looks a word of more than ${MAX_ANALYSED_WORD_LENGTH} letters up as it is: no typo, no split`, () => {
      for (const name of ['one 500-letter word', 'a real compound repeated'])
        expect({ name, lines: linesOf(hostile(name)) }).toEqual({ name, lines: [] });
    });

    it('finds nothing in punctuation, and reads the words between emoji', () => {
      expect(linesOf('!!!')).toEqual([]);
      expect(linesOf('🏔️ ski ⛷️')).toEqual(linesOf('ski'));
    });

    it('reads quotes, operators and SQL as words', () => {
      expect(linesOf('"beach" & (sun)').slice(0, 2)).toEqual([
        'word 1 | exact | beach | 1 | 39',
        'word 2 | exact | sun | 1 | 1',
      ]);
      expect(linesOf("'; DROP TABLE travel_offers; --").slice(0, 2)).toEqual([
        'word 2 | exact | tabl | 1 | 1',
        'word 4 | exact | off | 1 | 5',
      ]);
    });
  });
});
