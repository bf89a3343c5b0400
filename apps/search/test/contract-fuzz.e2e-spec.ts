import {
  databaseSnapshotter,
  failureCount,
  type FieldContext,
  type FuzzOperation,
  formatFailures,
  formatSummary,
  type OpenApiDocument,
  runContractFuzz,
  snapshotDifferences,
  writeFuzzReport,
} from '@rt/testing';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import type { CatalogueRecord } from '../src/catalogue/catalogue-record';
import { makeOffer } from './catalogue-fixtures';
import { createCatalogueTestApp, TestApp } from './test-app';

/**
 * Fixed: the same requests on every run. `FUZZ_SEED` and `FUZZ_RUNS` explore further (other
 * seeds, more requests); fix what they find, the default stays the one `pnpm test` runs.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
/** Requests of `GET /travels` (16 parameters); the other operations take no input and get fewer. */
const TRAVELS_RUNS = Number(process.env.FUZZ_RUNS ?? 3000);
const OTHER_RUNS = 25;
const RESULTS_FILE = join(__dirname, '..', '..', '..', '.test-results', 'fuzz-search.json');
const CONTRACT_FILE = join(__dirname, '..', 'contract', 'openapi.json');

const COUNTRIES: Record<string, string> = { FR: 'France', CH: 'Schweiz', IT: 'Italia', ES: 'España' };

/** A small catalogue with something for every filter and sort, nulls included. */
const CATALOGUE: CatalogueRecord[] = [
  ['F01', 'FR', ['culture'], 4.5, 7, '2027-03-01T08:00:00', 'Séjour culturel à Lyon', false, false, true],
  [
    'F02',
    'CH',
    ['hiking', 'wellness'],
    null,
    3,
    '2027-02-01T07:30:00',
    'Randonnée et bains à Zermatt',
    true,
    false,
    true,
  ],
  ['F03', 'IT', ['beach'], 3.2, null, null, 'Plages de Sardaigne', false, true, false],
  [
    'F04',
    'FR',
    ['beach', 'gastronomy'],
    4.9,
    10,
    '2027-01-15T09:00:00',
    'Côte d’Azur gourmande',
    true,
    true,
    true,
  ],
  ['F05', null, [], null, 5, null, 'Voyage surprise', false, false, false],
  [
    'F06',
    'ES',
    ['culture', 'family'],
    3.9,
    14,
    '2027-06-30T10:00:00',
    'Barcelone en famille',
    false,
    true,
    true,
  ],
  ['F07', 'CH', ['ski'], 4.1, 6, '2026-12-20T08:00:00', 'Skiferien in Zürich und Davos', true, false, true],
  ['F08', 'FR', ['wellness'], 2.8, 21, '2027-07-14T06:00:00', 'Thalasso en Bretagne', false, true, true],
].map(([id, code, categories, rating, duration, next, name, discountClub, seaside, isValid]) =>
  makeOffer(id as string, {
    name: name as string,
    slug: `offer-${String(id).toLowerCase()}`,
    description: `${name as string}: un séjour de ${String(duration ?? 'quelques')} jours.`,
    rating: rating as number | null,
    duration: duration as number | null,
    nextDeparture: next as string | null,
    departureDates: next ? [next as string] : [],
    destination: code ? { code: code as string, name: COUNTRIES[code as string] } : null,
    categories: (categories as string[]).map((slug) => ({ slug, name: slug })),
    discountClub: discountClub as boolean,
    seaside: seaside as boolean,
    isValid: isValid as boolean,
  }),
);

/**
 * Contract-driven fuzzing (docs/reliability.md): requests generated from the search service's
 * OpenAPI document, valid-ish and hostile. Every answer must be a documented status (never a
 * 5xx) whose body validates against the contract; a refused request must leave every table as
 * it was.
 */
describe('contract fuzzing of the search service', () => {
  let t: TestApp;
  let contract: OpenApiDocument;

  beforeAll(async () => {
    // WITH_DOCS: the service serves its contract at /openapi.json (outside the contract itself).
    t = await createCatalogueTestApp(CATALOGUE, { WITH_DOCS: 'true' });
    contract = (await t.http.get('/openapi.json').expect(200)).body as OpenApiDocument;
  });
  afterAll(() => t.close());

  it('serves the committed contract snapshot, the document the fuzzing reads', () => {
    expect(contract).toEqual(JSON.parse(readFileSync(CONTRACT_FILE, 'utf8')));
  });

  it('lists the catalogue the fuzzing searches', async () => {
    const res = await t.http.get('/travels?size=100&infoDensity=min').expect(200);
    expect(res.body.totalRecords).toBe(CATALOGUE.length);
  });

  /** Values that match the catalogue, so filters and searches return records. */
  const knownValues = ({ name }: FieldContext) => {
    switch (name) {
      case 'search':
        return ['séjour', 'Zurich ski', 'plage', 'gourmande côte', 'famille Barcelone', 'randonée'];
      case 'destination':
        return ['FR', 'ch', 'IT'];
      case 'category':
        return ['culture', 'beach,wellness', 'ski', 'skiing'];
      case 'facets':
        return ['category', 'destination,discountclub,seaside', 'category,destination,seaside', 'price'];
      case 'dates':
        return ['2027-01-01_2027-03-31', '2026-12-01_2026-12-31,2027-07-01_2027-07-31'];
      default:
        return undefined;
    }
  };

  it('sees a write in its snapshot of the tables', async () => {
    const database = await databaseSnapshotter((sql) => t.dataSource.query(sql));
    const before = await database.snapshot();
    await t.reindex.run('cli');
    expect(snapshotDifferences(before, await database.snapshot())).toEqual([
      expect.stringMatching(/^table reindex_runs: /),
    ]);
  });

  it('answers every generated request as documented, and stores nothing when it refuses', async () => {
    const database = await databaseSnapshotter((sql) => t.dataSource.query(sql));
    const report = await runContractFuzz(
      {
        service: 'search',
        document: contract,
        server: t.app.getHttpServer() as Server,
        snapshot: database.snapshot,
        // `GET /reindex` answers at once and rebuilds in the background: wait for it, so its
        // writes are not taken for those of the next request.
        afterRequest: () => t.reindex.idle(),
      },
      {
        seed: SEED,
        numRuns: (operation: FuzzOperation) => (operation.key === 'GET /travels' ? TRAVELS_RUNS : OTHER_RUNS),
        arbitraries: { knownValues },
      },
    );
    writeFuzzReport(report, RESULTS_FILE, {
      database: process.env.TEST_DATABASE_URL ? 'postgresql' : 'pglite (embedded)',
      tables: database.tables,
    });
    console.log(formatSummary(report));
    if (failureCount(report) > 0) throw new Error(`${formatSummary(report)}\n\n${formatFailures(report)}`);
    expect(report.requests).toBeGreaterThan(0);
  }, 900_000);
});
