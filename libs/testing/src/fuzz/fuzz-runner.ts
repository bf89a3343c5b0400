import fc from 'fast-check';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type Server } from 'node:http';
import { dirname } from 'node:path';
import { ContractValidator, type ContractProblem, type ObservedResponse } from './contract-validator';
import { type FuzzOperation, listOperations, type OpenApiDocument } from './openapi';
import {
  dateExtremeRequests,
  type FuzzRequest,
  requestArbitrary,
  type RequestArbitraryOptions,
  toWire,
  type WireRequest,
} from './requests';
import { SchemaArbitraries, type SchemaArbitraryOptions } from './schema-arbitraries';
import { snapshotDifferences, type StateSnapshot } from './state-snapshot';

export interface FuzzTarget {
  /** Names the summary (`fuzz-<service>.json`). */
  service: string;
  document: OpenApiDocument;
  server: Server;
  /** Prefix of every path (default: the document's first server URL when it is a path). */
  basePath?: string;
  /**
   * Headers that authenticate a request (Authorization …), chosen by the test for each request:
   * e.g. the identity whose hat the request's X-Viewing-As names. Not called for public
   * operations, nor for requests sent without (or with broken) credentials.
   */
  credentials?: (operation: FuzzOperation, request: FuzzRequest) => Promise<Record<string, string>>;
  /** Fingerprints of the stored state; compared around every refused (4xx) request. */
  snapshot?: () => Promise<StateSnapshot>;
  /** Runs after each answer, before the next snapshot (e.g. waits for work the request started). */
  afterRequest?: (operation: FuzzOperation, status: number) => Promise<void>;
  /** Runs before an operation's requests are generated (e.g. to refresh the known values). */
  beforeOperation?: (operation: FuzzOperation) => Promise<void>;
}

export interface FuzzOptions {
  seed: number;
  /** Requests per operation (a number, or one per operation). */
  numRuns: number | ((operation: FuzzOperation) => number);
  /** Which operations, in which order (default: every one, reads first, deletions last). */
  operations?: (all: FuzzOperation[]) => FuzzOperation[];
  arbitraries?: Partial<SchemaArbitraryOptions>;
  requests?: Partial<RequestArbitraryOptions>;
  /** How many failures the summary describes in full (all are counted). */
  maxReportedFailures?: number;
  /**
   * Besides the generated requests, give every date field each of the date extremes
   * (`dateExtremeRequests`; default true).
   */
  dateExtremes?: boolean;
}

export type FailureKind = ContractProblem['kind'] | 'partial-write' | 'no-answer';

export interface FuzzFailure {
  kinds: FailureKind[];
  operation: string;
  variant: string;
  method: string;
  url: string;
  /** The input: headers (credentials named, not shown) and an excerpt of the body. */
  headers: Record<string, string | string[]>;
  body?: string;
  status?: number;
  responseExcerpt?: string;
  problems: string[];
}

export interface OperationFigures {
  operation: string;
  requests: number;
  statuses: Record<string, number>;
  variants: number;
}

export interface FuzzReport {
  service: string;
  seed: number;
  startedAt: string;
  durationMs: number;
  requests: number;
  operations: OperationFigures[];
  statuses: Record<string, number>;
  serverErrors: number;
  contractViolations: number;
  /** Refused (4xx) requests whose snapshots were compared. */
  refusalsChecked: number;
  partialWrites: number;
  noAnswer: number;
  failures: FuzzFailure[];
  /** Failures beyond `maxReportedFailures`, counted but not described. */
  moreFailures: number;
}

const ORDER: Record<string, number> = { GET: 0, HEAD: 0, OPTIONS: 0, POST: 1, PUT: 2, PATCH: 2, DELETE: 3 };

/** Reads before writes, deletions last, so the rows the test made survive as long as possible. */
export const readsFirst = (operations: FuzzOperation[]): FuzzOperation[] =>
  [...operations].sort(
    (a, b) => (ORDER[a.method] ?? 2) - (ORDER[b.method] ?? 2) || a.key.localeCompare(b.key),
  );

/** A seed per operation, from the run's seed and the operation's key (stable when others change). */
export function operationSeed(seed: number, key: string): number {
  let hash = seed | 0;
  for (let i = 0; i < key.length; i++) hash = (Math.imul(hash, 31) + key.charCodeAt(i)) | 0;
  return hash;
}

interface Exchange extends ObservedResponse {
  text: string;
}

/** Sends one request over its own connection and reads the whole answer. */
export async function exchange(server: Server, wire: WireRequest, timeoutMs = 30_000): Promise<Exchange> {
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return new Promise<Exchange>((resolve, reject) => {
    let answered: Exchange | undefined;
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: wire.method,
        path: wire.url,
        headers: { ...wire.headers, ...(wire.body ? { 'Content-Length': String(wire.body.length) } : {}) },
        agent: false,
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          answered = { status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString('utf8') };
          resolve(answered);
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    // A server that answers before reading the whole body may reset the connection under it.
    req.on('error', (error) => (answered ? resolve(answered) : reject(error)));
    req.end(wire.body);
  });
}

const excerpt = (text: string, length = 400) =>
  text.length > length ? `${text.slice(0, length)}… (${text.length} characters)` : text;

function describeBody(body: Buffer | undefined): string | undefined {
  if (!body) return undefined;
  const text = body.toString('utf8');
  // JSON.stringify shows NUL, surrogates and control characters as escapes.
  return /[^\t\n\r\x20-\x7e\u00a0-\uffff]|\ufffd/.test(text) && body.length > 64
    ? `<${body.length} bytes: ${body.subarray(0, 48).toString('hex')}…>`
    : JSON.stringify(excerpt(text)).slice(1, -1);
}

/**
 * Fuzzes every operation of the document: `numRuns` generated requests each (seeded), sent one at
 * a time; each answer is checked against the contract and, when refused, the stored state
 * against its snapshot from just before.
 */
export async function runContractFuzz(target: FuzzTarget, options: FuzzOptions): Promise<FuzzReport> {
  const started = Date.now();
  const validator = new ContractValidator(target.document, target.service);
  const schemas = new SchemaArbitraries(target.document, options.arbitraries);
  const serverUrl = target.document.servers?.[0]?.url ?? '';
  const basePath = target.basePath ?? (serverUrl.startsWith('/') ? serverUrl.replace(/\/$/, '') : '');
  const operations = (options.operations ?? readsFirst)(listOperations(target.document));
  const report: FuzzReport = {
    service: target.service,
    seed: options.seed,
    startedAt: new Date(started).toISOString(),
    durationMs: 0,
    requests: 0,
    operations: [],
    statuses: {},
    serverErrors: 0,
    contractViolations: 0,
    refusalsChecked: 0,
    partialWrites: 0,
    noAnswer: 0,
    failures: [],
    moreFailures: 0,
  };
  const maxReported = options.maxReportedFailures ?? 50;
  for (const operation of operations) {
    await target.beforeOperation?.(operation);
    // Taken after the hook: what it changes is the test's doing, not a request's.
    let before = await target.snapshot?.();
    const numRuns = typeof options.numRuns === 'number' ? options.numRuns : options.numRuns(operation);
    const requestOptions = { sampleFiles: [], ...options.requests };
    const requests = [
      ...fc.sample(requestArbitrary(operation, schemas, requestOptions), {
        seed: operationSeed(options.seed, operation.key),
        numRuns,
      }),
      ...(options.dateExtremes === false
        ? []
        : dateExtremeRequests(
            operation,
            schemas,
            requestOptions,
            operationSeed(options.seed, operation.key),
          )),
    ];
    const figures: OperationFigures = { operation: operation.key, requests: 0, statuses: {}, variants: 0 };
    const variants = new Set<string>();
    for (const request of requests) {
      variants.add(request.variant.replace(/ ".*$/, ''));
      const wire = toWire(request, operation.method, operation.path, basePath);
      let credentialsName: string | undefined;
      if (!operation.isPublic && request.auth === 'default' && target.credentials) {
        const credentials = await target.credentials(operation, request);
        Object.assign(wire.headers, credentials);
        credentialsName = credentials.Authorization ? '<the test identity>' : undefined;
      } else if (request.auth === 'malformed') {
        wire.headers.Authorization = 'Bearer 1|not-a-real-token';
      }
      const failure = (kinds: FailureKind[], problems: string[], answer?: Exchange): FuzzFailure => ({
        kinds,
        operation: operation.key,
        variant: request.variant,
        method: operation.method,
        url: excerpt(wire.url, 300),
        headers: Object.fromEntries(
          Object.entries(wire.headers).map(([name, value]) => [
            name,
            name === 'Authorization' && credentialsName
              ? credentialsName
              : typeof value === 'string'
                ? excerpt(value, 120)
                : value,
          ]),
        ),
        body: describeBody(wire.body),
        status: answer?.status,
        responseExcerpt: answer ? excerpt(answer.text, 300) : undefined,
        problems,
      });
      const record = (item: FuzzFailure) => {
        if (report.failures.length < maxReported) report.failures.push(item);
        else report.moreFailures++;
      };

      report.requests++;
      figures.requests++;
      let answer: Exchange;
      try {
        answer = await exchange(target.server, wire);
      } catch (error) {
        report.noAnswer++;
        const status = 'no answer';
        figures.statuses[status] = (figures.statuses[status] ?? 0) + 1;
        report.statuses[status] = (report.statuses[status] ?? 0) + 1;
        record(failure(['no-answer'], [`no answer: ${(error as Error).message}`]));
        before = await target.snapshot?.();
        continue;
      }
      const status = String(answer.status);
      figures.statuses[status] = (figures.statuses[status] ?? 0) + 1;
      report.statuses[status] = (report.statuses[status] ?? 0) + 1;
      await target.afterRequest?.(operation, answer.status);

      const problems = validator.check(operation, answer);
      const kinds: FailureKind[] = [...new Set(problems.map((problem) => problem.kind))];
      const lines = problems.flatMap((problem) => [
        problem.message,
        ...(problem.errors ?? []).map((e) => `  ajv: ${e}`),
      ]);
      if (answer.status >= 500) report.serverErrors++;
      else if (problems.length > 0) report.contractViolations++;

      const after = await target.snapshot?.();
      if (before && after && answer.status >= 400 && answer.status < 500) {
        report.refusalsChecked++;
        const changes = snapshotDifferences(before, after);
        if (changes.length > 0) {
          report.partialWrites++;
          kinds.push('partial-write');
          lines.push(
            `refused with ${answer.status} but the stored state changed:`,
            ...changes.map((c) => `  ${c}`),
          );
        }
      }
      before = after;
      if (kinds.length > 0) record(failure(kinds, lines, answer));
    }
    figures.variants = variants.size;
    report.operations.push(figures);
  }
  report.durationMs = Date.now() - started;
  return report;
}

/** The failures, readable: one block per request with its input, answer and problems. */
export function formatFailures(report: FuzzReport): string {
  const blocks = report.failures.map((failure, index) =>
    [
      `#${index + 1} [${failure.kinds.join(', ')}] ${failure.operation} (${failure.variant})`,
      `  request: ${failure.method} ${failure.url}`,
      `  headers: ${JSON.stringify(failure.headers)}`,
      ...(failure.body !== undefined ? [`  body: ${failure.body}`] : []),
      `  answer: ${failure.status ?? 'none'} ${failure.responseExcerpt ?? ''}`,
      ...failure.problems.map((problem) => `  - ${problem}`),
    ].join('\n'),
  );
  if (report.moreFailures > 0) blocks.push(`… and ${report.moreFailures} more`);
  return blocks.join('\n\n');
}

/** One line per operation, then the totals: what the test prints. */
export function formatSummary(report: FuzzReport): string {
  const width = Math.max(...report.operations.map((o) => o.operation.length), 10);
  const statuses = (counts: Record<string, number>) =>
    Object.entries(counts)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([status, count]) => `${status}×${count}`)
      .join(' ');
  return [
    `[fuzz] ${report.service}: seed ${report.seed}, ${report.operations.length} operations, ${report.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s`,
    ...report.operations.map(
      (o) => `  ${o.operation.padEnd(width)} ${String(o.requests).padStart(4)}  ${statuses(o.statuses)}`,
    ),
    `  statuses: ${statuses(report.statuses)}`,
    `  5xx: ${report.serverErrors}, contract violations: ${report.contractViolations}, ` +
      `partial writes: ${report.partialWrites} (of ${report.refusalsChecked} refusals checked), no answer: ${report.noAnswer}`,
  ].join('\n');
}

/** Writes the report (figures and described failures) as JSON, creating the folder. */
export function writeFuzzReport(report: FuzzReport, file: string, extra: Record<string, unknown> = {}): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ ...report, ...extra }, null, 2)}\n`);
}

/** The number of requests that broke a rule (5xx, contract, partial write, no answer). */
export const failureCount = (report: FuzzReport): number =>
  report.serverErrors + report.contractViolations + report.partialWrites + report.noAnswer;
