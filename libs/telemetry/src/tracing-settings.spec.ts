import { sdkEnvironment, tracingEnabled } from './tracing-settings';

describe('tracingEnabled', () => {
  it('is off without an endpoint or an exporter', () => {
    expect(tracingEnabled({})).toBe(false);
    expect(tracingEnabled({ OTEL_SERVICE_NAME: 'x', OTEL_EXPORTER_OTLP_ENDPOINT: ' ' })).toBe(false);
  });

  it('is on with an OTLP endpoint (all signals or traces alone) or a named exporter', () => {
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(
      true,
    );
    expect(tracingEnabled({ OTEL_TRACES_EXPORTER: 'otlp' })).toBe(true);
    expect(tracingEnabled({ OTEL_TRACES_EXPORTER: 'none,console' })).toBe(true);
  });

  it('is off when the exporter is none or the SDK is disabled, whatever else is set', () => {
    expect(
      tracingEnabled({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }),
    ).toBe(false);
    expect(tracingEnabled({ OTEL_SDK_DISABLED: 'TRUE', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toBe(
      false,
    );
    expect(tracingEnabled({ OTEL_SDK_DISABLED: 'false', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toBe(
      true,
    );
  });
});

describe('sdkEnvironment', () => {
  const defaults = { serviceName: 'road-trip-backend', version: '1.4.0', buildDate: '2026-11-26' };

  it('names the service, its version and build date, and exports traces only', () => {
    expect(sdkEnvironment({}, defaults)).toEqual({
      OTEL_SERVICE_NAME: 'road-trip-backend',
      OTEL_RESOURCE_ATTRIBUTES: 'service.version=1.4.0,build.date=2026-11-26',
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_METRICS_EXPORTER: 'none',
      OTEL_LOGS_EXPORTER: 'none',
    });
  });

  it("keeps the operator's own choices, their resource attributes last so that they win", () => {
    const env = sdkEnvironment(
      {
        OTEL_SERVICE_NAME: 'backend-eu',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod,service.version=1.4.1',
        OTEL_TRACES_EXPORTER: 'console',
        OTEL_LOGS_EXPORTER: 'otlp',
      },
      defaults,
    );
    expect(env.OTEL_SERVICE_NAME).toBe('backend-eu');
    expect(env.OTEL_RESOURCE_ATTRIBUTES).toBe(
      'service.version=1.4.0,build.date=2026-11-26,deployment.environment=prod,service.version=1.4.1',
    );
    expect(env.OTEL_TRACES_EXPORTER).toBeUndefined();
    expect(env.OTEL_LOGS_EXPORTER).toBe('otlp');
  });

  it('leaves the resource alone without a version or build date', () => {
    expect(sdkEnvironment({}, { serviceName: 'travel-search' }).OTEL_RESOURCE_ATTRIBUTES).toBeUndefined();
  });
});
