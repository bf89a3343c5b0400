import { once } from 'node:events';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** How the fake server answers one request. */
export type FakeAnswer =
  /** 200 with one vector per input (items in reverse order: clients must read `index`). */
  | { kind: 'ok'; dimension?: number }
  /** Waits, then answers `ok` (unless the client gave up). */
  | { kind: 'slow'; delayMs: number }
  /** Sends the headers at once, then stalls before the body. */
  | { kind: 'stall-body'; delayMs: number }
  | { kind: 'status'; status: number; retryAfter?: string; body?: string }
  /** 200 with this exact body (malformed answers). */
  | { kind: 'raw'; body: string; contentType?: string }
  /** 200 with this JSON body. */
  | { kind: 'json'; body: unknown };

export interface FakeRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: { model?: unknown; input?: unknown; dimensions?: unknown; [key: string]: unknown };
}

/** A text's vector of `dimension` numbers, as the fake provider embeds it. */
export type FakeVector = (text: string, dimension: number) => number[];

/** Deterministic vectors (hashed character trigrams): similar texts get similar vectors. */
export const trigramVector: FakeVector = (text, dimension) => {
  const vector = new Array<number>(dimension).fill(0);
  const padded = ` ${text.toLowerCase()} `;
  for (let i = 0; i + 3 <= padded.length; i++) {
    let hash = 2166136261;
    for (let j = i; j < i + 3; j++) hash = Math.imul(hash ^ padded.charCodeAt(j), 16777619) >>> 0;
    vector[hash % dimension] += 1;
  }
  vector[0] += 0.01; // never a zero vector
  return vector;
};

/**
 * An OpenAI-compatible `/v1/embeddings` server on 127.0.0.1 (port 0, then kept). It records every
 * request and answers from a script of answers, then with `fallback`. A request with one input is
 * a search query, one with more a reindex batch (the services send batches of 32): each kind is
 * counted and has its own delay, and reindex batches can be held until released (a rebuild stays
 * in its embedding step as long as the test needs). `down()` closes it (connection refused on its
 * port), `up()` listens again on the same port.
 */
export class FakeEmbeddingServer {
  readonly requests: FakeRequest[] = [];
  fallback: FakeAnswer = { kind: 'ok' };
  queryDelayMs = 0;
  documentDelayMs = 0;
  queryRequests = 0;
  documentRequests = 0;
  private readonly script: FakeAnswer[] = [];
  private server?: Server;
  private port = 0;
  private held?: { promise: Promise<void>; release: () => void };

  /** `vector` makes the vectors of `ok` answers (of `dimension` numbers unless the request or the answer says). */
  constructor(
    private readonly dimension: number,
    private readonly vector: FakeVector = trigramVector,
  ) {}

  /** Base URL without `/v1`. */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The next requests get these answers, in order. */
  answer(...answers: FakeAnswer[]): this {
    this.script.push(...answers);
    return this;
  }

  /** Reindex batches wait from now until `release()` (or `reset()`). */
  holdDocuments(): void {
    if (this.held) return;
    let release = () => undefined as void;
    const promise = new Promise<void>((resolve) => (release = resolve));
    this.held = { promise, release };
  }

  release(): void {
    this.held?.release();
    this.held = undefined;
  }

  /** Forgets the requests and the script; `ok` answers at once again. */
  reset(): void {
    this.requests.length = 0;
    this.script.length = 0;
    this.fallback = { kind: 'ok' };
    this.queryDelayMs = 0;
    this.documentDelayMs = 0;
    this.release();
  }

  async up(): Promise<this> {
    if (this.server) return this;
    const server = createServer((req, res) => void this.handle(req, res));
    server.listen(this.port, '127.0.0.1');
    await once(server, 'listening');
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
    return this;
  }

  async down(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    // Lets clients notice that their kept-alive connections are gone (else: UND_ERR_SOCKET, not ECONNREFUSED).
    await sleep(10);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: FakeRequest['body'] = {};
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as FakeRequest['body'];
    } catch {
      // recorded as {}
    }
    this.requests.push({ path: req.url ?? '', headers: req.headers, body });
    if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      return;
    }
    const inputs = Array.isArray(body.input) ? body.input.map(String) : [String(body.input)];
    const documents = inputs.length > 1;
    if (documents) this.documentRequests++;
    else this.queryRequests++;
    if (documents && this.held) await this.held.promise;
    const delay = documents ? this.documentDelayMs : this.queryDelayMs;
    if (delay > 0) await sleep(delay);
    const answer = this.script.shift() ?? this.fallback;
    const ok = (dimension = typeof body.dimensions === 'number' ? body.dimensions : this.dimension) => {
      const data = inputs
        .map((text, index) => ({ object: 'embedding', index, embedding: this.vector(text, dimension) }))
        .reverse();
      return JSON.stringify({
        object: 'list',
        data,
        model: body.model,
        usage: { prompt_tokens: 1, total_tokens: 1 },
      });
    };
    if (res.destroyed) return;
    switch (answer.kind) {
      case 'ok':
        res.writeHead(200, { 'content-type': 'application/json' }).end(ok(answer.dimension));
        return;
      case 'slow':
        await sleep(answer.delayMs);
        if (!res.destroyed) res.writeHead(200, { 'content-type': 'application/json' }).end(ok());
        return;
      case 'stall-body':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.flushHeaders();
        await sleep(answer.delayMs);
        if (!res.destroyed) res.end(ok());
        return;
      case 'status':
        res
          .writeHead(answer.status, {
            'content-type': 'application/json',
            ...(answer.retryAfter ? { 'retry-after': answer.retryAfter } : {}),
          })
          .end(answer.body ?? JSON.stringify({ error: { message: `status ${answer.status}` } }));
        return;
      case 'raw':
        res.writeHead(200, { 'content-type': answer.contentType ?? 'application/json' }).end(answer.body);
        return;
      case 'json':
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
        return;
    }
  }
}
