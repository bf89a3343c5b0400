import { seededRandom } from '@rt/contracts';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { KindRecorder } from './stats';

/** One HTTP request of the mix, built afresh for each call. */
export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  /** Path and query, from the host root. */
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
}

/** A kind of request: which service, how often, and how to build one. */
export interface RequestKind {
  name: string;
  service: 'backend' | 'search';
  /** Relative frequency in the mix. */
  weight: number;
  build(random: () => number): RequestSpec;
}

export interface DriveOptions {
  connections: number;
  warmupMs: number;
  durationMs: number;
  maxRequests: number;
  requestTimeoutMs: number;
  ports: Record<RequestKind['service'], number>;
  /** Checked before each request: true stops the run early (Ctrl-C, a deadline). */
  aborted: () => boolean;
  /** Called every few seconds with the measured requests and errors so far. */
  onProgress?: (seconds: number, requests: number, errors: number) => void;
}

export interface DriveResult {
  recorders: KindRecorder[];
  /** From the end of the warm-up until the last measured request was answered. */
  measuredSeconds: number;
  /** Why the measured phase ended. */
  stoppedBy: 'duration' | 'max-requests' | 'aborted';
  warmupRequests: number;
  warmupErrors: number;
  /** The first few failures of the warm-up. */
  warmupSamples: string[];
}

/** Picks a kind with a probability proportional to its weight. */
export function weightedPicker<T extends { weight: number }>(items: T[]): (random: () => number) => T {
  const total = items.reduce((sum, item) => sum + item.weight, 0);
  if (!(total > 0)) throw new Error('the mix has no weight');
  return (random) => {
    let point = random() * total;
    for (const item of items) {
      point -= item.weight;
      if (point < 0) return item;
    }
    return items[items.length - 1];
  };
}

interface Outcome {
  status: number;
  bytes: number;
  /** Set when the request failed (non-2xx, connection error, timeout). */
  failure?: string;
}

/**
 * Sends one request and reads the whole answer. Any status outside 2xx, a connection error and a
 * request not fully answered within `timeoutMs` are failures.
 */
function send(agent: Agent, port: number, spec: RequestSpec, timeoutMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const body = spec.body === undefined ? undefined : Buffer.from(JSON.stringify(spec.body));
    const headers: Record<string, string> = { Accept: 'application/json', ...spec.headers };
    if (body) {
      headers['Content-Type'] = 'application/json';
      headers['Content-Length'] = String(body.length);
    }
    let settled = false;
    const finish = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const req = request(
      { host: '127.0.0.1', port, method: spec.method, path: spec.path, headers, agent },
      (res) => {
        const status = res.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        let bytes = 0;
        let kept = '';
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (!ok && kept.length < 300) kept += chunk.toString('utf8', 0, Math.min(chunk.length, 300));
        });
        res.on('end', () =>
          finish(
            ok
              ? { status, bytes }
              : { status, bytes, failure: `${spec.method} ${spec.path} → ${status} ${kept.slice(0, 300)}` },
          ),
        );
        res.on('error', (error) =>
          finish({
            status: 0,
            bytes,
            failure: `${spec.method} ${spec.path} → response error ${error.message}`,
          }),
        );
      },
    );
    const timer = setTimeout(() => {
      finish({ status: 0, bytes: 0, failure: `${spec.method} ${spec.path} → timeout after ${timeoutMs} ms` });
      req.destroy(new Error('timeout'));
    }, timeoutMs);
    req.on('error', (error) =>
      finish({ status: 0, bytes: 0, failure: `${spec.method} ${spec.path} → ${error.message}` }),
    );
    req.end(body);
  });
}

/**
 * A closed loop: `connections` workers, each sending its next request (a kind drawn by weight)
 * as soon as the previous one is answered, first for the warm-up (not recorded), then for the
 * measured phase, which ends at `durationMs` or after `maxRequests` requests, whichever comes
 * first. A request is recorded when it started in the measured phase; its latency runs from
 * the call until the last byte of the answer.
 */
export async function drive(kinds: RequestKind[], options: DriveOptions): Promise<DriveResult> {
  const agents = {
    backend: new Agent({ keepAlive: true, maxSockets: options.connections }),
    search: new Agent({ keepAlive: true, maxSockets: options.connections }),
  };
  const recorders = new Map(kinds.map((kind) => [kind, new KindRecorder(kind.name, kind.service)]));
  const pick = weightedPicker(kinds);
  const started = performance.now();
  const measureFrom = started + options.warmupMs;
  const measureUntil = measureFrom + options.durationMs;
  let issued = 0;
  let warmupRequests = 0;
  let warmupErrors = 0;
  const warmupSamples: string[] = [];
  let stoppedBy: DriveResult['stoppedBy'] = 'duration';
  let lastAnswer = measureFrom;

  const worker = async (index: number) => {
    const random = seededRandom(0x5eed + index * 7919);
    for (;;) {
      if (options.aborted()) {
        stoppedBy = 'aborted';
        return;
      }
      const now = performance.now();
      if (now >= measureUntil) return;
      const measured = now >= measureFrom;
      if (measured) {
        if (issued >= options.maxRequests) {
          stoppedBy = 'max-requests';
          return;
        }
        issued++;
      }
      const kind = pick(random);
      const spec = kind.build(random);
      const t0 = performance.now();
      const outcome = await send(
        agents[kind.service],
        options.ports[kind.service],
        spec,
        options.requestTimeoutMs,
      );
      const t1 = performance.now();
      if (measured) {
        recorders.get(kind)!.record(t1 - t0, outcome.status, outcome.bytes, outcome.failure);
        lastAnswer = Math.max(lastAnswer, t1);
      } else {
        warmupRequests++;
        if (outcome.failure) {
          warmupErrors++;
          if (warmupSamples.length < 5) warmupSamples.push(`${kind.name}: ${outcome.failure}`);
        }
      }
    }
  };

  const report = () => {
    let requests = 0;
    let errors = 0;
    for (const recorder of recorders.values()) {
      requests += recorder.latencies.length;
      errors += recorder.errors;
    }
    options.onProgress?.((performance.now() - measureFrom) / 1000, requests, errors);
  };
  let progress: NodeJS.Timeout | undefined;
  const firstReport = setTimeout(() => (progress = setInterval(report, 5000)), options.warmupMs);
  try {
    await Promise.all(Array.from({ length: options.connections }, (_, index) => worker(index)));
  } finally {
    clearTimeout(firstReport);
    clearInterval(progress);
    agents.backend.destroy();
    agents.search.destroy();
  }
  return {
    recorders: [...recorders.values()],
    measuredSeconds: Math.max(0, lastAnswer - measureFrom) / 1000,
    stoppedBy,
    warmupRequests,
    warmupErrors,
    warmupSamples,
  };
}
