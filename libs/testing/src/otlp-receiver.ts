import { once } from 'node:events';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** One span as an OTLP/HTTP JSON export carries it, flattened for assertions. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** OTLP's numbers: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, unknown>;
  links: { traceId: string; spanId: string }[];
  status: { code?: number; message?: string };
  events: { name: string; attributes: Record<string, unknown> }[];
  /** The resource of the process that exported it (`service.name` …). */
  resource: Record<string, unknown>;
}

interface OtlpKeyValue {
  key: string;
  value: OtlpAnyValue;
}
interface OtlpAnyValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpAnyValue[] };
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: OtlpKeyValue[];
  links?: { traceId: string; spanId: string }[];
  status?: { code?: number; message?: string };
  events?: { name: string; attributes?: OtlpKeyValue[] }[];
}
interface OtlpExport {
  resourceSpans?: { resource?: { attributes?: OtlpKeyValue[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[];
}

function valueOf(value: OtlpAnyValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(valueOf);
  return undefined;
}

function attributesOf(list: OtlpKeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, valueOf(value)]));
}

/**
 * A collector for tests: an OpenTelemetry OTLP/HTTP receiver on a loopback port that accepts
 * JSON exports (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`) at `/v1/traces` and keeps every span,
 * and every body as received (for searching them for secrets).
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  readonly bodies: string[] = [];
  private readonly server: Server = createServer((req, res) => void this.receive(req, res));
  private port = 0;

  private constructor() {}

  static async start(): Promise<OtlpReceiver> {
    const receiver = new OtlpReceiver();
    receiver.server.listen(0, '127.0.0.1');
    await once(receiver.server, 'listening');
    receiver.port = (receiver.server.address() as AddressInfo).port;
    return receiver;
  }

  get endpoint(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The variables that point a service at this receiver, every span sampled. */
  environment(serviceName?: string): Record<string, string> {
    return {
      OTEL_EXPORTER_OTLP_ENDPOINT: this.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_TRACES_SAMPLER: 'parentbased_always_on',
      // Exported at once, so a test does not wait out the batch's five seconds.
      OTEL_BSP_SCHEDULE_DELAY: '100',
      ...(serviceName ? { OTEL_SERVICE_NAME: serviceName } : {}),
    };
  }

  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((span) => span.traceId === traceId);
  }

  /** Waits until a span matching `test` has arrived, and answers it. */
  async waitForSpan(test: (span: ReceivedSpan) => boolean, timeoutMs = 15_000): Promise<ReceivedSpan> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.spans.find(test);
      if (found) return found;
      if (Date.now() > deadline) {
        const names = [...new Set(this.spans.map((span) => span.name))].join(', ');
        throw new Error(`No matching span within ${timeoutMs} ms; received: ${names || 'none'}`);
      }
      await sleep(50);
    }
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    if (
      req.method !== 'POST' ||
      req.url !== '/v1/traces' ||
      !/json/.test(req.headers['content-type'] ?? '')
    ) {
      res.writeHead(req.url === '/v1/traces' ? 415 : 404).end();
      return;
    }
    this.bodies.push(body);
    const parsed = JSON.parse(body) as OtlpExport;
    for (const resourceSpans of parsed.resourceSpans ?? []) {
      const resource = attributesOf(resourceSpans.resource?.attributes);
      for (const scope of resourceSpans.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          this.spans.push({
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId || undefined,
            name: span.name,
            kind: span.kind,
            attributes: attributesOf(span.attributes),
            links: (span.links ?? []).map(({ traceId, spanId }) => ({ traceId, spanId })),
            status: span.status ?? {},
            events: (span.events ?? []).map((event) => ({
              name: event.name,
              attributes: attributesOf(event.attributes),
            })),
            resource,
          });
        }
      }
    }
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
  }
}
