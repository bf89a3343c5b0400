import { parseArgs } from 'node:util';

/** What a load run is asked to do: flags win over variables, variables over the defaults. */
export interface LoadOptions {
  /** Requests in flight at once (closed loop: each connection sends its next request when answered). */
  connections: number;
  /** Length of the measured phase, in seconds. */
  durationSeconds: number;
  /** Unmeasured warm-up before it, in seconds (0: none). */
  warmupSeconds: number;
  /** Hard cap on the measured requests: the run stops at whichever comes first. */
  maxRequests: number;
  /** A request not answered (body included) within this many milliseconds counts as an error. */
  requestTimeoutMs: number;
  /** Activation codes generated for the load organization. */
  codes: number;
  /** Offers of the generated search catalogue. */
  offers: number;
  /** The whole run (start-up, preparation, load, report) is aborted after this many seconds. */
  deadlineSeconds: number;
  /** LOG_LEVEL of the services (their output goes to files in the temporary directory). */
  logLevel: string;
  /** PostgreSQL server on which the two throwaway databases are created; undefined: probe, then embedded. */
  serverUrl?: string;
  /** Skip the server probe and use the embedded database. */
  embedded: boolean;
  /** Where the JSON report is written. */
  out: string;
  /** Keep the temporary directory (logs, mails, images) instead of removing it. */
  keep: boolean;
}

export const USAGE = `Usage: pnpm load [-- options]

Starts the built backend and search services on loopback on throwaway databases, prepares data
through their APIs, drives a weighted mix of requests and reports throughput, p50/p95/p99 and
errors per request kind. Exits 1 on any error (non-2xx, connection error or timeout).

  --connections <n>      requests in flight at once            LOAD_CONNECTIONS      (16)
  --duration <s>         measured phase, seconds               LOAD_DURATION_SECONDS (30)
  --warmup <s>           unmeasured warm-up, seconds           LOAD_WARMUP_SECONDS   (3)
  --max-requests <n>     hard cap on measured requests         LOAD_MAX_REQUESTS     (100000)
  --timeout <ms>         per-request timeout                   LOAD_REQUEST_TIMEOUT_MS (10000)
  --codes <n>            activation codes to generate          LOAD_CODES            (5000)
  --offers <n>           offers in the search catalogue        LOAD_OFFERS           (4000)
  --deadline <s>         abort the whole run after             LOAD_DEADLINE_SECONDS (900)
  --log-level <level>    LOG_LEVEL of the services             LOAD_LOG_LEVEL        (info)
  --database-url <url>   PostgreSQL server for the databases   LOAD_DATABASE_URL, else DATABASE_URL
                         (else postgres://postgres@127.0.0.1:5432/postgres if it answers,
                         else the embedded database)
  --embedded             use the embedded database             LOAD_EMBEDDED=1
  --out <file>           JSON report                           LOAD_OUT              (.load-results/load.json)
  --keep                 keep the temporary directory (service logs, mails, images)`;

function positiveInt(name: string, value: string, min = 1): number {
  if (!/^\d+$/.test(value) || Number(value) < min) {
    throw new Error(`${name}: expected an integer of at least ${min}, got "${value}"`);
  }
  return Number(value);
}

const truthy = (value: string | undefined) => value !== undefined && /^(1|true|yes|on)$/i.test(value);

/** The options of `argv` (after the script name) and `env`; `undefined` when help was asked for. */
export function parseOptions(
  argv: string[],
  env: Record<string, string | undefined>,
  root: string,
): LoadOptions | undefined {
  // `pnpm load -- --x` passes the `--` along.
  const args = argv.filter((arg, index) => !(index === 0 && arg === '--'));
  const { values } = parseArgs({
    args,
    options: {
      connections: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      'max-requests': { type: 'string' },
      timeout: { type: 'string' },
      codes: { type: 'string' },
      offers: { type: 'string' },
      deadline: { type: 'string' },
      'log-level': { type: 'string' },
      'database-url': { type: 'string' },
      embedded: { type: 'boolean' },
      out: { type: 'string' },
      keep: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return undefined;
  const pick = (flag: string | undefined, variable: string, fallback: string) =>
    flag ?? (env[variable] || fallback);
  const logLevel = pick(values['log-level'], 'LOAD_LOG_LEVEL', 'info');
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new Error(`--log-level: unknown level "${logLevel}"`);
  }
  const codes = positiveInt('--codes', pick(values.codes, 'LOAD_CODES', '5000'));
  if (codes > 100_000) throw new Error('--codes: at most 100000 (one batch)');
  return {
    connections: positiveInt('--connections', pick(values.connections, 'LOAD_CONNECTIONS', '16')),
    durationSeconds: positiveInt('--duration', pick(values.duration, 'LOAD_DURATION_SECONDS', '30')),
    warmupSeconds: positiveInt('--warmup', pick(values.warmup, 'LOAD_WARMUP_SECONDS', '3'), 0),
    maxRequests: positiveInt('--max-requests', pick(values['max-requests'], 'LOAD_MAX_REQUESTS', '100000')),
    requestTimeoutMs: positiveInt('--timeout', pick(values.timeout, 'LOAD_REQUEST_TIMEOUT_MS', '10000'), 100),
    codes,
    offers: positiveInt('--offers', pick(values.offers, 'LOAD_OFFERS', '4000'), 20),
    deadlineSeconds: positiveInt('--deadline', pick(values.deadline, 'LOAD_DEADLINE_SECONDS', '900'), 30),
    logLevel,
    serverUrl: values['database-url'] ?? (env.LOAD_DATABASE_URL || env.DATABASE_URL || undefined),
    embedded: values.embedded ?? truthy(env.LOAD_EMBEDDED),
    out: pick(values.out, 'LOAD_OUT', `${root}/.load-results/load.json`),
    keep: values.keep ?? false,
  };
}
