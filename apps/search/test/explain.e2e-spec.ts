import type { CatalogueRecord } from '../src/catalogue/catalogue-record';
import { rankingTuningOf } from '../src/http/travels/travels-request';
import { EMBEDDING_PROVIDER } from '../src/embedding/embedding-provider';
import type { EmbeddingProvider } from '../src/embedding/embedding-provider';
import { EmbeddingUnavailableError } from '../src/embedding/embedding-unavailable.error';
import type { ExplanationDto } from '../src/http/travels/dto/travel-listing.response';
import { fillerOffers, makeOffer } from './catalogue-fixtures';
import { catalogueTestAppAround, listTravels } from './test-app';

/** `explain=true` (apps/search/README.md, "Explain mode"): why each record ranks where it does. */
const RECORDS: CatalogueRecord[] = [
  makeOffer('E1', {
    name: 'Randonnée au bord du lac d’Annecy',
    description: 'Sentiers et refuges autour du lac.',
    destination: { code: 'FR', name: 'France' },
    categories: [{ slug: 'hiking', name: 'Randonnée' }],
    language: 'fr',
  }),
  makeOffer('E2', {
    name: 'Wanderung am See bei Thun',
    description: 'Gemütliche Etappen zwischen Ufer und Dorf.',
    destination: { code: 'CH', name: 'Schweiz' },
    categories: [{ slug: 'hiking', name: 'Wandern' }],
    language: 'de',
  }),
  makeOffer('E3', {
    name: 'Wanderungen im Jura',
    description: 'Drei Tage zu Fuss über die Höhen.',
    destination: { code: 'CH', name: 'Schweiz' },
    categories: [{ slug: 'hiking', name: 'Wandern' }],
    language: 'de',
  }),
  makeOffer('E4', {
    name: 'Zermatt ski week',
    description: 'Seven days on the slopes below the Matterhorn.',
    destination: { code: 'CH', name: 'Switzerland' },
    categories: [{ slug: 'ski', name: 'Ski' }],
    language: 'en',
  }),
  makeOffer('E5', {
    name: 'City lights of London',
    description: 'Theatres, pubs and markets.',
    destination: { code: 'GB', name: 'United Kingdom' },
    categories: [{ slug: 'city-break', name: 'City break' }],
    language: 'en',
  }),
  // Other offers, so that no word above is held by more than a tenth of the catalogue (frequent).
  ...fillerOffers(30),
];

interface Explained {
  id: string;
  _relevance_score: number;
  semantic_score: number;
  tsvector_score: number;
  _explanation?: ExplanationDto;
}

/** Digits of the closeness checks: the sums differ from the scores by rounding only. */
const DIGITS = 9;

describe('GET /travels?explain=true', () => {
  const app = catalogueTestAppAround(RECORDS);

  const list = (query: Record<string, string>) =>
    app()
      .http.get('/travels')
      .query({ infoDensity: 'min', size: '20', ...query });
  const search = (query: Record<string, string>) =>
    listTravels<{ totalRecords: number; records: Explained[] }>(app(), query);

  /** The explanation adds up: the order, the fused score, the text score. */
  const expectConsistent = (records: Explained[], offset = 0) => {
    expect(records.length).toBeGreaterThan(0);
    const scores = records.map((r) => r._explanation!.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    records.forEach((record) => {
      const e = record._explanation!;
      expect(e.score).toBe(record._relevance_score);
      expect(e.semantic.similarity).toBe(record.semantic_score);
      expect(e.text.score).toBe(record.tsvector_score);
      expect(e.semantic.contribution + e.text.contribution).toBeCloseTo(record._relevance_score, DIGITS + 6);
      const terms = e.text.terms.reduce((sum, term) => sum + term.contribution, 0);
      expect(terms).toBeCloseTo(record.tsvector_score, DIGITS);
      if (record.tsvector_score > 0) {
        expect(Math.abs(terms - record.tsvector_score) / record.tsvector_score).toBeLessThan(1e-9);
      }
      // the fusion's own terms, 0 for a side the record is not ranked on
      const { vector_weight: w, k } = e.rrf;
      expect(e.semantic.contribution).toBe(e.semantic.rank === null ? 0 : w / (k + e.semantic.rank));
      expect(e.text.contribution).toBe(e.text.rank === null ? 0 : (1 - w) / (k + e.text.rank));
      // only the counted forms contribute, one per query word
      e.text.terms.filter((term) => !term.counted).forEach((term) => expect(term.contribution).toBe(0));
      const countedWords = e.text.terms.filter((term) => term.counted).map((term) => term.word);
      expect(countedWords.length).toBeGreaterThanOrEqual(new Set(countedWords).size);
    });
    // ranks are absolute (the page's offset included)
    const textRanks = records.map((r) => r._explanation!.text.rank).filter((rank) => rank !== null);
    textRanks.forEach((rank) => expect(rank).toBeGreaterThan(0));
    if (offset === 0 && records[0]._explanation!.rrf.vector_weight === 0) expect(textRanks[0]).toBe(1);
  };

  it('explains a hybrid page: the ranks, contributions and terms add up to the returned scores', async () => {
    const plain = await search({ search: 'Wanderung am See' });
    const explained = await search({ search: 'Wanderung am See', explain: 'true' });
    // the same page, the same scores: explain adds a field and nothing else
    expect(explained.totalRecords).toBe(plain.totalRecords);
    expect(explained.records.map(({ _explanation: _e, ...rest }) => rest)).toEqual(plain.records);
    plain.records.forEach((record) => expect(record).not.toHaveProperty('_explanation'));
    expectConsistent(explained.records);
    const first = explained.records[0]._explanation!;
    expect(first.rrf).toEqual({
      vector_weight: rankingTuningOf({}, app().config).rrfVectorWeight,
      k: app().config.SEARCH_RRF_K,
    });
    // the German offer holds the words themselves
    const german = explained.records.find((r) => r.id === 'E2')!._explanation!;
    expect(german.text.rank).toBeLessThanOrEqual(2);
    expect(german.text.terms).toEqual(
      expect.arrayContaining([
        // a German record is indexed stemmed: the word's German stem counts
        expect.objectContaining({
          word: 'wanderung',
          term: 'wander',
          kind: 'stem',
          weight: 1,
          counted: true,
        }),
        expect.objectContaining({ word: 'see', term: 'see', kind: 'exact', weight: 1, counted: true }),
        expect.objectContaining({ word: 'am', term: 'am', kind: 'stop', weight: 0.1, counted: true }),
      ]),
    );
    expect(german.text.coverage).toBe(1);
  });

  it('shows the glossary term by which a German query reaches a French offer', async () => {
    const { records } = await search({ search: 'Wanderung am See', explain: 'true', rrfVectorWeight: '0' });
    expectConsistent(records);
    // the German offer and the French one cover the whole search: both first, by their scores
    expect(
      records
        .slice(0, 2)
        .map((r) => r.id)
        .sort(),
    ).toEqual(['E1', 'E2']);
    const at = records.findIndex((r) => r.id === 'E1');
    const french = records[at]._explanation!;
    expect(french.semantic).toEqual({ similarity: expect.any(Number), rank: null, contribution: 0 });
    expect(french.text.rank).toBe(at + 1);
    const glossary = french.text.terms.filter((term) => term.kind === 'glossary' && term.counted);
    expect(glossary.length).toBeGreaterThan(0);
    expect(glossary.map((term) => term.word)).toContain('wanderung');
    glossary.forEach((term) => {
      expect(term.weight).toBe(app().config.SEARCH_GLOSSARY_WEIGHT);
      expect(term.contribution).toBeGreaterThan(0);
    });
    // a translation covers its word as the word itself does, at a lower weight
    expect(french.text.coverage).toBe(1);
    expect(app().config.SEARCH_GLOSSARY_WEIGHT).toBeLessThan(1);
  });

  it('shows a misspelt place corrected by the gazetteer, a typo correction, and a stem', async () => {
    const place = await search({ search: 'Anecy', explain: 'true' });
    expectConsistent(place.records);
    const annecy = place.records.find((r) => r.id === 'E1')!._explanation!;
    expect(annecy.text.terms).toEqual([
      expect.objectContaining({ word: 'anecy', term: 'annecy', kind: 'place', counted: true }),
    ]);
    expect(annecy.text.terms[0].weight).toBe(app().config.SEARCH_PLACE_WEIGHT);
    expect(annecy.text.terms[0].contribution).toBeCloseTo(
      place.records.find((r) => r.id === 'E1')!.tsvector_score,
      DIGITS,
    );

    // (a misspelling no language knows: `bellow`, a real English word, is no longer corrected, D-82)
    const typo = await search({ search: 'Sveen', explain: 'true' });
    expectConsistent(typo.records);
    const zermatt = typo.records.find((r) => r.id === 'E4')!._explanation!;
    expect(zermatt.text.terms).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ word: 'sveen', kind: 'typo', weight: 0.6, counted: true }),
      ]),
    );

    const both = await search({ search: 'Zermatt Wanderungen', explain: 'true', rrfVectorWeight: '0' });
    expectConsistent(both.records);
    const termsOf = (id: string) => both.records.find((r) => r.id === id)!._explanation!.text.terms;
    expect(termsOf('E4')).toEqual([
      expect.objectContaining({ word: 'zermatt', term: 'zermatt', kind: 'exact', counted: true }),
    ]);
    expect(termsOf('E3')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ word: 'wanderungen', term: 'wander', kind: 'stem', counted: true }),
      ]),
    );
    // each record holds one of the two words: half the query covered, or about
    both.records.slice(0, 2).forEach((r) => expect(r._explanation!.text.coverage).toBeLessThan(1));
  });

  it('explains other pages and the semantic side alone', async () => {
    const all = await search({ search: 'Wanderung See Zermatt Randonnée', explain: 'true' });
    expectConsistent(all.records);
    const second = await search({
      search: 'Wanderung See Zermatt Randonnée',
      explain: 'true',
      size: '2',
      page: '2',
    });
    expect(second.records).toEqual(all.records.slice(2, 4));
    const semantic = await search({ search: 'Wanderung am See', explain: 'true', rrfVectorWeight: '1' });
    expectConsistent(semantic.records);
    semantic.records.forEach((r) => {
      expect(r._explanation!.text).toMatchObject({ rank: null, contribution: 0 });
      expect(r._explanation!.semantic.rank).not.toBeNull();
    });
    // the text score is still the record's own, term by term
    expect(semantic.records.some((r) => r.tsvector_score > 0)).toBe(true);
  });

  it('explains the full-text fallback (the text side alone, w 0)', async () => {
    const provider = app().app.get<EmbeddingProvider>(EMBEDDING_PROVIDER);
    const down = jest
      .spyOn(provider, 'embedQuery')
      .mockRejectedValue(new EmbeddingUnavailableError('down in this test'));
    const fallback = app().config.SEARCH_FULLTEXT_FALLBACK;
    app().config.SEARCH_FULLTEXT_FALLBACK = true;
    try {
      const res = await list({ search: 'Wanderung am See', explain: 'true' }).expect(200);
      expect(res.headers['x-search-fallback']).toBe('fulltext');
      const records = res.body.records as Explained[];
      expectConsistent(records);
      records.forEach((r, i) => {
        expect(r._explanation).toMatchObject({
          rrf: { vector_weight: 0, k: app().config.SEARCH_RRF_K },
          semantic: { similarity: 0, rank: null, contribution: 0 },
          text: { rank: i + 1 },
        });
      });
    } finally {
      app().config.SEARCH_FULLTEXT_FALLBACK = fallback;
      down.mockRestore();
    }
  });

  it('is off by default and adds nothing to a filter-only listing', async () => {
    const off = await search({ search: 'Zermatt', explain: 'false' });
    expect(off.records.length).toBeGreaterThan(0);
    off.records.forEach((record) => expect(record).not.toHaveProperty('_explanation'));
    const filterOnly = await search({ destination: 'CH', explain: 'true' });
    expect(filterOnly.records.length).toBeGreaterThan(0);
    filterOnly.records.forEach((record) => expect(record).not.toHaveProperty('_explanation'));
    const full = (
      await list({ search: 'Zermatt', explain: 'yes', infoDensity: 'full', size: '1' }).expect(200)
    ).body as { records: Explained[] };
    expect(full.records[0]).toMatchObject({ id: 'E4', name: 'Zermatt ski week' });
    expectConsistent(full.records);
  });

  it('refuses anything but a boolean with 422 in the shared envelope', async () => {
    const res = await list({ search: 'Zermatt', explain: 'maybe' }).expect(422);
    expect(Object.keys(res.body).sort()).toEqual(['errors', 'message']);
    expect(Object.keys(res.body.errors)).toEqual(['explain']);
    expect(res.body.message).toBe(res.body.errors.explain[0]);
  });
});
