import { readFileSync } from 'node:fs';
import type { CatalogueRecord } from '../src/catalogue/catalogue-record';
import { foldText } from '../src/query/analysis/tokenizer';
import { loadGazetteer } from '../src/query/gazetteer/gazetteer';
import { TRAVEL_GLOSSARY_PATH } from '../src/query/glossary/glossary';
import { fillerOffers, makeOffer } from './catalogue-fixtures';
import { catalogueTestAppAround, listTravels } from './test-app';

/** Query expansion by the travel glossary: a word of one language finds offers in the others. */
const RECORDS: CatalogueRecord[] = [
  makeOffer('G1', {
    name: 'Randonnée au bord du lac d’Annecy',
    description: 'Sentiers et refuges autour du lac.',
    destination: { code: 'FR', name: 'France' },
    categories: [{ slug: 'hiking', name: 'Randonnée' }],
    language: 'fr',
  }),
  makeOffer('G2', {
    name: 'Wanderung am See bei Thun',
    description: 'Gemütliche Etappen zwischen Ufer und Dorf.',
    destination: { code: 'CH', name: 'Schweiz' },
    categories: [{ slug: 'hiking', name: 'Wandern' }],
    language: 'de',
  }),
  makeOffer('G3', {
    name: 'City lights of London',
    description: 'Theatres, pubs and markets.',
    destination: { code: 'GB', name: 'United Kingdom' },
    categories: [{ slug: 'city-break', name: 'City break' }],
    language: 'en',
  }),
  // Other offers, so that no word above is held by more than a tenth of the catalogue (frequent).
  ...fillerOffers(24),
];

interface Scored {
  id: string;
  tsvector_score: number;
  _relevance_score: number;
}

describe('query expansion by the travel glossary', () => {
  const app = catalogueTestAppAround(RECORDS);

  const search = (query: Record<string, string>) =>
    listTravels<{ totalRecords: number; records: Scored[] }>(app(), query);
  const ids = async (query: Record<string, string>) => (await search(query)).records.map((r) => r.id);

  it('finds the French offer for a German query as it finds the German one (both answer every word)', async () => {
    const text = await search({ search: 'Wanderung am See', rrfVectorWeight: '0' });
    expect(text.records.map((r) => r.id).sort()).toEqual(['G1', 'G2']);
    text.records.forEach((record) => expect(record.tsvector_score).toBeGreaterThan(0));
    const hybrid = await ids({ search: 'Wanderung am See' });
    expect(hybrid.slice(0, 2).sort()).toEqual(['G1', 'G2']);
  });

  it('expands through compounds, typos and folding', async () => {
    // "Seeufer": the glossary's lakeside ("Ufer"); never its phrases with a stop word ("bord du
    // lac", "am See": GLOSSARY.md), whose pairs ("du lac") would match any lake
    expect(await ids({ search: 'Seeufer', rrfVectorWeight: '0' })).toContain('G2');
    // "Bergwanderung": a mountain hike, and its parts ("Wanderung" in the German offer)
    expect((await ids({ search: 'Bergwanderung', rrfVectorWeight: '0' })).slice(0, 2).sort()).toEqual([
      'G1',
      'G2',
    ]);
    // a typo corrected by the text side ranks above the glossary's words of the misspelt word
    expect(await ids({ search: 'Randonée', rrfVectorWeight: '0' })).toEqual(['G1', 'G2']);
    // a misspelling the text side cannot correct ("wander" is the index's word) still expands
    expect(await ids({ search: 'Wandrung', rrfVectorWeight: '0' })).toEqual(
      expect.arrayContaining(['G1', 'G2']),
    );
    expect(await ids({ search: 'HIKING lake', rrfVectorWeight: '0' })).toEqual(
      expect.arrayContaining(['G1', 'G2']),
    );
    expect(await ids({ search: 'escursione al lago', rrfVectorWeight: '0' })).toEqual(
      expect.arrayContaining(['G1', 'G2']),
    );
  });

  it('counts what an expanded phrase selects exactly under filters, every counted record reachable', async () => {
    // "Städtereise" gains the phrase "city break"
    const filtered = await search({ search: 'Städtereise', destination: 'GB', rrfVectorWeight: '0' });
    expect(filtered.records.map((r) => r.id)).toEqual(['G3']);
    expect(filtered.totalRecords).toBe(1);
    const bounded = await search({ search: 'Städtereise', rrfVectorWeight: '0' });
    expect(bounded.totalRecords).toBe(bounded.records.length);
  });

  it('SEARCH_GLOSSARY_WEIGHT 0 turns the glossary off', async () => {
    const saved = app().config.SEARCH_GLOSSARY_WEIGHT;
    app().config.SEARCH_GLOSSARY_WEIGHT = 0;
    try {
      expect(await ids({ search: 'Wanderung am See', rrfVectorWeight: '0' })).toEqual(['G2']);
    } finally {
      app().config.SEARCH_GLOSSARY_WEIGHT = saved;
    }
  });

  it('folds every glossary word as the database folds the catalogue (travel_fold)', async () => {
    const words = readFileSync(TRAVEL_GLOSSARY_PATH, 'utf8')
      .split('\n')
      .filter((line) => line && !line.startsWith('#'))
      .slice(1)
      .flatMap((line) => line.split('\t').slice(2).join(';').split(';'))
      .map((word) => word.trim())
      .filter(Boolean);
    expect(words.length).toBeGreaterThan(2000);
    const rows = (await app().dataSource.query(
      'SELECT w, travel_fold(w) AS folded FROM unnest($1::text[]) w',
      [words],
    )) as { w: string; folded: string }[];
    const differing = rows.filter((row) => foldText(row.w) !== row.folded);
    expect(differing).toEqual([]);
  });

  it('folds the German digraphs only where they can be German, as foldText does (D-54)', async () => {
    const expected: Record<string, string> = {
      Zuerich: 'zurich',
      Zürich: 'zurich',
      Muenchen: 'munchen',
      Suedtirol: 'sudtirol',
      Baeuerin: 'baurin',
      Bäuerin: 'baurin',
      Diaet: 'diat',
      Loetschental: 'lotschental',
      Québec: 'quebec',
      Quebec: 'quebec',
      Suède: 'suede',
      'Sue\u0300de': 'suede',
      cœur: 'coeur',
      coeur: 'coeur',
      jouer: 'jouer',
      Rouen: 'rouen',
      aéroport: 'aroport',
      aeroport: 'aroport',
      Straße: 'strasse',
    };
    // the gazetteer's names in the Latin script (unaccent knows no other script's marks)
    const names = [...loadGazetteer().names().values()]
      .flatMap((matches) =>
        matches.flatMap(({ place }) => [...Object.values(place.names).flat(), ...place.local]),
      )
      .filter((name) => /^[\p{Script=Latin}\p{M}\p{P}\p{Zs}\d]+$/u.test(name.normalize('NFD')));
    const words = [...new Set([...Object.keys(expected), ...names])];
    const rows = (await app().dataSource.query(
      'SELECT w, travel_fold(w) AS folded FROM unnest($1::text[]) w',
      [words],
    )) as { w: string; folded: string }[];
    expect(rows.filter((row) => foldText(row.w) !== row.folded)).toEqual([]);
    expect(Object.fromEntries(Object.keys(expected).map((word) => [word, foldText(word)]))).toEqual(expected);
  });
});
