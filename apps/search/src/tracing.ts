import { startTracing } from '@rt/telemetry';

/**
 * OpenTelemetry, started before anything else is loaded so that its instrumentations see `http`
 * and `pg` come in: `main.ts` imports this first. Off unless the `OTEL_*` variables ask for traces.
 */
export const tracing = startTracing({
  serviceName: 'travel-search',
  version: process.env.VERSION_TAG?.trim() || undefined,
  buildDate: process.env.BUILD_DATE?.trim() || undefined,
});
