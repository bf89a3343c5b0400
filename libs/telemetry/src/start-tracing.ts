import type { Span } from '@opentelemetry/api';
import type { IncomingMessage } from 'node:http';
import { ResourceDefaults, sdkEnvironment, tracingEnabled } from './tracing-settings';

/** Probes and scrapes: every few seconds per pod, and nothing to learn from their traces. */
const UNTRACED_PATHS = new Set(['/health/live', '/health/ready', '/metrics']);

export interface TracingOptions extends ResourceDefaults {
  /**
   * Paths whose URL is itself a credential (signed image links): their spans keep the route
   * template in place of the URL.
   */
  capabilityPathPrefixes?: string[];
}

export interface Tracing {
  readonly enabled: boolean;
  /** Exports the spans still buffered, then stops; a clean shutdown awaits it. */
  shutdown(): Promise<void>;
}

const URL_ATTRIBUTES = ['http.target', 'http.url', 'url.full', 'url.path', 'url.query'];

/**
 * Starts OpenTelemetry's Node SDK when the `OTEL_*` variables ask for traces (see
 * `tracingEnabled`), with the instrumentations of what the services do: incoming and outgoing
 * HTTP, `fetch` (the embedding provider), and PostgreSQL statements (their text, never their
 * values). It must run before anything requires `http` or `pg`: each service's `tracing.ts` is the
 * first import of its `main.ts`.
 */
export function startTracing(options: TracingOptions): Tracing {
  if (!tracingEnabled(process.env)) return { enabled: false, shutdown: async () => {} };
  Object.assign(process.env, sdkEnvironment(process.env, options));
  // Loaded here, not at the top: a service that does not trace never loads the SDK.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { HttpInstrumentation } =
    require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { PgInstrumentation } =
    require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  const { UndiciInstrumentation } =
    require('@opentelemetry/instrumentation-undici') as typeof import('@opentelemetry/instrumentation-undici');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const capabilityPrefixes = options.capabilityPathPrefixes ?? [];
  const sdk = new NodeSDK({
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => UNTRACED_PATHS.has(pathOf(request)),
        applyCustomAttributesOnSpan: (span, request) => {
          if (
            'headers' in request &&
            capabilityPrefixes.some((prefix) => pathOf(request).startsWith(prefix))
          ) {
            hideUrl(span);
          }
        },
      }),
      // Statements outside a traced operation (the outbox's polling, pool checks) make no traces;
      // taking a connection from the pool is not a span of its own (one per statement otherwise).
      new PgInstrumentation({
        requireParentSpan: true,
        enhancedDatabaseReporting: false,
        ignoreConnectSpans: true,
      }),
      new UndiciInstrumentation({ requireParentforSpans: true }),
    ],
  });
  sdk.start();
  let stopped: Promise<void> | undefined;
  return { enabled: true, shutdown: () => (stopped ??= sdk.shutdown()) };
}

function pathOf(request: IncomingMessage): string {
  const url = request.url ?? '/';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

function hideUrl(span: Span): void {
  for (const attribute of URL_ATTRIBUTES) span.setAttribute(attribute, '[redacted]');
}
