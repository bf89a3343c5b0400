import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import type { CatalogueRecord } from '../src/catalogue/catalogue-record';
import { QueryExpansionService } from '../src/query/glossary/query-expansion.service';
import { catalogueFolder, makeOffer, toNdjson } from './catalogue-fixtures';
import { createTestApp, TestApp, textSideIds } from './test-app';

/** Operator synonyms (SEARCH_SYNONYMS_SOURCE): read at start and at each reindex. */
const RECORDS: CatalogueRecord[] = [
  makeOffer('S1', {
    name: 'Luxury camping under the stars',
    description: 'Safari tents with proper beds.',
    categories: [{ slug: 'adventure', name: 'Adventure' }],
    language: 'en',
  }),
  makeOffer('S2', {
    name: 'A cabin by the fjord',
    description: 'Wood stove and sauna.',
    categories: [{ slug: 'wellness', name: 'Wellness' }],
    language: 'en',
  }),
  ...Array.from({ length: 24 }, (_, i) =>
    makeOffer(`F${String(i).padStart(2, '0')}`, {
      name: `Offer number ${i}`,
      description: 'Somewhere else entirely.',
      categories: [{ slug: 'other', name: 'Other' }],
      language: 'en',
    }),
  ),
];

describe('operator synonyms (SEARCH_SYNONYMS_SOURCE)', () => {
  let t: TestApp;
  let folder: Awaited<ReturnType<typeof catalogueFolder>>;
  let synonyms: string;

  beforeAll(async () => {
    folder = await catalogueFolder();
    const source = await folder.file('synonyms-catalogue.ndjson', toNdjson(RECORDS));
    synonyms = await folder.file(
      'synonyms.txt',
      '# glamping is what travellers type\nglamping, luxury camping\n',
    );
    t = await createTestApp({ env: { CATALOGUE_SOURCE: source, SEARCH_SYNONYMS_SOURCE: synonyms } });
    await t.reindex.idle();
  }, 120_000);
  afterAll(async () => {
    await t.close();
    await folder.cleanup();
  });

  const ids = (search: string) => textSideIds(t, search);
  const metric = async (name: string, labels: Record<string, string> = {}) => {
    const families = parsePrometheusTextFormat((await t.http.get('/metrics').expect(200)).text);
    const family = families.find((f) => f.name === name);
    return family?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))?.value;
  };

  it('expands a search with the sets read at start, and counts them in /metrics', async () => {
    expect(await ids('glamping')).toEqual(['S1']);
    expect(await metric('search_synonym_sets')).toBe('1');
  });

  it('reads the file again at each reindex: a one-way mapping changes the answer', async () => {
    await folder.file('synonyms.txt', 'glamping => cabin\n');
    expect(await t.reindex.run('cli')).toMatchObject({ status: 'succeeded' });
    expect(await ids('glamping')).toEqual(['S2']);
    // one way: "cabin" does not gain "glamping"
    expect(await ids('cabin')).toEqual(['S2']);
    expect(await metric('search_synonym_sets')).toBe('1');
  });

  it('refuses a malformed file naming the line, and keeps the previous synonyms', async () => {
    await folder.file('synonyms.txt', 'glamping, luxury camping\n# fine so far\nglamping => cabin => hut\n');
    await expect(t.app.get(QueryExpansionService).reloadSynonyms()).rejects.toThrow(
      `${synonyms}, line 3: more than one "=>"`,
    );
    const failedBefore = Number(await metric('search_synonyms_reloads_total', { result: 'failed' }));
    // a reindex goes on without it
    expect(await t.reindex.run('cli')).toMatchObject({ status: 'succeeded' });
    expect(Number(await metric('search_synonyms_reloads_total', { result: 'failed' }))).toBe(
      failedBefore + 1,
    );
    expect(await ids('glamping')).toEqual(['S2']);
    expect(await metric('search_synonym_sets')).toBe('1');
  });
});
