import { Matches } from 'class-validator';
import { FloatSetting, IntSetting, StringSetting } from '@rt/platform';

/** The catalogue source and the reindex (ReindexService and its steps), validated at start-up. */
export class ReindexSettings {
  /**
   * Where a reindex reads the catalogue: a `.json` (array) or `.ndjson` file path, an `http(s)://`
   * URL answering either, `demo:<count>[:<seed>]` (the demo catalogue, departures in the twelve
   * months after the current one), `generated:<count>[:<seed>]` (the older generator, fixed dates:
   * the judged sets and benchmarks), or `none`. Unset: `demo:2000` in the local environment, `none`
   * elsewhere.
   */
  @StringSetting()
  CATALOGUE_SOURCE?: string;

  /** How long an HTTP catalogue source may take, in milliseconds, before the reindex fails. */
  @IntSetting({ min: 1000 })
  CATALOGUE_SOURCE_TIMEOUT_MS: number = 120_000;

  /** A reindex that would remove more than this share of the catalogue changes nothing unless forced. */
  @FloatSetting({ min: 0, max: 1 })
  REINDEX_MAX_REMOVAL_SHARE: number = 0.5;

  /**
   * `maintenance_work_mem` of the index builds after a first (bulk) load: pgvector builds the HNSW
   * graph in memory while it fits and much more slowly once it does not (about 2.5 kB an offer with
   * 384 dimensions: 512MB holds some 200,000 offers, 1,000,000 need about 3GB). Taken from the
   * database server's memory, for the build only.
   */
  @StringSetting()
  @Matches(/^[1-9][0-9]{0,6}(kB|MB|GB)$/, {
    message: 'REINDEX_MAINTENANCE_WORK_MEM must be a PostgreSQL memory size such as 512MB or 4GB',
  })
  REINDEX_MAINTENANCE_WORK_MEM: string = '512MB';

  /** Records embedded and staged per batch during a reindex. */
  @IntSetting({ min: 1, max: 5000 })
  REINDEX_BATCH_SIZE: number = 500;

  /** An empty index with a source configured is built at start-up; a failed first build is retried after this delay. */
  @IntSetting({ min: 1000 })
  REINDEX_RETRY_MS: number = 60_000;

  // Derived by loadSearchConfig (config.ts), not read from the environment:

  /** CATALOGUE_SOURCE with its default applied; `undefined` when there is none. */
  catalogueSource?: string;

  /** Build an empty index at start-up (the service: yes; the reindex command builds it itself). */
  reindexOnStart!: boolean;
}
