import { once } from 'node:events';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BuiltinEmbeddingProvider } from '../src/embedding/builtin-embedding.provider';

/** How the fake server answers one request. */
export type FakeAnswer =
  /** 200 with one vector per input: the built-in provider's vector times 3 (not normalised), items in reverse order. */
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

/**
 * An OpenAI-compatible `/v1/embeddings` server on 127.0.0.1 (port 0, then kept): it records every
 * request and answers from a script of answers, then with `fallback`. `down()` closes it (connection
 * refused on its port), `up()` listens again on the same port.
 */
export class FakeEmbeddingServer {
  readonly requests: FakeRequest[] = [];
  fallback: FakeAnswer = { kind: 'ok' };
  private readonly script: FakeAnswer[] = [];
  private server?: Server;
  private port = 0;

  constructor(private readonly dimension: number) {}

  /** Base URL without `/v1`. */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The next requests get these answers, in order. */
  answer(...answers: FakeAnswer[]): this {
    this.script.push(...answers);
    return this;
  }

  reset(): void {
    this.requests.length = 0;
    this.script.length = 0;
    this.fallback = { kind: 'ok' };
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
    await new Promise((resolve) => setTimeout(resolve, 10));
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
    const answer = this.script.shift() ?? this.fallback;
    const inputs = Array.isArray(body.input) ? (body.input as string[]) : [String(body.input)];
    const ok = (dimension = typeof body.dimensions === 'number' ? body.dimensions : this.dimension) => {
      const builtin = new BuiltinEmbeddingProvider(dimension);
      const data = inputs
        .map((text, index) => ({
          object: 'embedding',
          index,
          embedding: Array.from(builtin.embed(text), (value) => value * 3),
        }))
        .reverse();
      return JSON.stringify({
        object: 'list',
        data,
        model: body.model,
        usage: { prompt_tokens: 1, total_tokens: 1 },
      });
    };
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
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
