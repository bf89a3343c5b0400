import {
  Attributes,
  context,
  Link,
  propagation,
  ROOT_CONTEXT,
  Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { getRPCMetadata, RPCType } from '@opentelemetry/core';

const tracer = trace.getTracer('road-trip');

export interface SpanOptions {
  attributes?: Attributes;
  kind?: SpanKind;
  /** A trace of its own (work that outlives the request that started it), rather than a child. */
  root?: boolean;
  links?: Link[];
}

/**
 * Runs `work` in a span of its own: the statements and calls it makes become its children, a
 * failure marks it as an error (with the exception's type and message), and it ends when `work`
 * settles. Without tracing, the API's no-op span costs next to nothing.
 */
export async function inSpan<T>(
  name: string,
  options: SpanOptions,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = options.root ? ROOT_CONTEXT : context.active();
  return tracer.startActiveSpan(
    name,
    { attributes: options.attributes, kind: options.kind, links: options.links, root: options.root },
    parent,
    async (span) => {
      try {
        return await work(span);
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: errorTypeOf(error) });
        if (error instanceof Error) span.recordException({ name: error.name, message: error.message });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

function errorTypeOf(error: unknown): string {
  return error instanceof Error ? error.constructor.name : 'Error';
}

/** The active span's ids, for log lines and responses; undefined outside a traced operation. */
export function activeTraceIds(): { traceId: string; spanId: string } | undefined {
  const span = trace.getActiveSpan();
  if (!span) return undefined;
  const { traceId, spanId } = span.spanContext();
  return trace.isSpanContextValid(span.spanContext()) ? { traceId, spanId } : undefined;
}

/** The W3C trace context (`traceparent`, `tracestate`) of the active span, to store with deferred work. */
export function activeTraceContext(): Record<string, string> | null {
  if (!activeTraceIds()) return null;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return Object.keys(carrier).length > 0 ? carrier : null;
}

/** A link to the span a stored trace context names (none when nothing valid was stored). */
export function linksTo(stored: Record<string, string> | null | undefined): Link[] {
  if (!stored) return [];
  const spanContext = trace.getSpanContext(propagation.extract(ROOT_CONTEXT, stored));
  return spanContext && trace.isSpanContextValid(spanContext) ? [{ context: spanContext }] : [];
}

export { SpanKind, SpanStatusCode } from '@opentelemetry/api';
export type { Attributes, Span } from '@opentelemetry/api';

/**
 * Called while a request is being served: gives a function that names the request's server span
 * by its route template (`GET /api/tour/:id`) once routing has found it. Outside a traced request
 * it does nothing.
 */
export function serverSpanRouteSetter(): (route: string) => void {
  const request = getRPCMetadata(context.active());
  if (request?.type !== RPCType.HTTP) return () => {};
  return (route) => {
    request.route = route;
  };
}
