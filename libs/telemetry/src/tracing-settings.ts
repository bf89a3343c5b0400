/**
 * Whether traces are exported, from the standard OpenTelemetry variables alone: on when an OTLP
 * endpoint is given or an exporter named, off otherwise (the SDK is then never loaded) and always
 * off with `OTEL_SDK_DISABLED=true`.
 */
export function tracingEnabled(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporters = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase();
  if (exporters) return exporters.split(',').some((name) => name.trim() !== 'none' && name.trim() !== '');
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

export interface ResourceDefaults {
  serviceName: string;
  version?: string;
  buildDate?: string;
}

/**
 * The variables the SDK reads, completed with this service's defaults: its name, its version and
 * build date as resource attributes (an operator's own `OTEL_RESOURCE_ATTRIBUTES` win, key by key),
 * and no metrics or logs exporter unless asked for (Prometheus scrapes the metrics, stdout carries
 * the logs).
 */
export function sdkEnvironment(env: NodeJS.ProcessEnv, defaults: ResourceDefaults): Record<string, string> {
  const resource = [
    defaults.version ? `service.version=${defaults.version}` : undefined,
    defaults.buildDate ? `build.date=${defaults.buildDate}` : undefined,
    env.OTEL_RESOURCE_ATTRIBUTES?.trim() || undefined,
  ].filter((part): part is string => part !== undefined);
  const completed: Record<string, string> = {
    OTEL_SERVICE_NAME: env.OTEL_SERVICE_NAME?.trim() || defaults.serviceName,
    OTEL_METRICS_EXPORTER: env.OTEL_METRICS_EXPORTER?.trim() || 'none',
    OTEL_LOGS_EXPORTER: env.OTEL_LOGS_EXPORTER?.trim() || 'none',
  };
  // The SDK reads the list left to right and keeps a key's last value: the operator's come last.
  if (resource.length > 0) completed.OTEL_RESOURCE_ATTRIBUTES = resource.join(',');
  if (!env.OTEL_TRACES_EXPORTER?.trim()) completed.OTEL_TRACES_EXPORTER = 'otlp';
  return completed;
}
