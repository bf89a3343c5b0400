import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import type { Options as PinoHttpOptions } from 'pino-http';
import { DynamicModule, type LoggerService, RequestMethod } from '@nestjs/common';
import { activeTraceIds } from '@rt/telemetry';
import { destination, type DestinationStream } from 'pino';
import PinoPretty from 'pino-pretty';

const REQUEST_ID_HEADER = 'x-request-id';
/** A client's id is echoed only when it is short and plain, so it cannot forge log lines. */
const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdOf(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers[REQUEST_ID_HEADER];
  const id = typeof given === 'string' && ACCEPTABLE_REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/** Fields that never reach a log line in clear: credentials and personal data. */
const PERSONAL_FIELDS = [
  'password',
  'token',
  'email',
  'to',
  'first_name',
  'last_name',
  'firstName',
  'lastName',
  'parameters',
];

const MAX_LOGGED_QUERY_LENGTH = 2000;

const QUOTED_VALUE = /: "(?:[^"]|"")*"/g;

interface LoggableError {
  name?: unknown;
  message?: unknown;
  stack?: unknown;
  code?: unknown;
  status?: unknown;
  /** TypeORM's QueryFailedError: the SQL text (its values travel apart, in `parameters`). */
  query?: unknown;
  driverError?: { code?: unknown; constraint?: unknown; table?: unknown; column?: unknown };
  cause?: unknown;
}

/**
 * The one error serializer of every log line: what explains a failure (type, message, stack,
 * code, the SQL text of a failed query and the constraint it broke) and nothing a client sent.
 * A failed query's parameters and PostgreSQL's `detail` (which quotes row values) are left out,
 * and so is any other property an error carries.
 */
export function safeErrorOf(value: unknown): Record<string, unknown> {
  // pino-http runs pino's own serializer first; the error itself stays reachable as `raw`.
  const original = value instanceof Error ? value : (value as { raw?: unknown } | null)?.raw;
  if (!(original instanceof Error)) return { message: String(value) };
  const error = original as Error & LoggableError;
  // PostgreSQL quotes the value it refused at the end of some messages (`invalid input syntax for
  // type uuid: "…"`); a failed query's message and stack keep the words, not the value.
  const clean = (text: string | undefined) =>
    error.driverError && text ? text.replace(QUOTED_VALUE, ': "[redacted]"') : text;
  const safe: Record<string, unknown> = {
    type: error.constructor?.name ?? error.name,
    message: clean(error.message),
    stack: clean(error.stack),
  };
  if (typeof error.code === 'string' || typeof error.code === 'number') safe.code = error.code;
  if (typeof error.query === 'string') safe.query = error.query.slice(0, MAX_LOGGED_QUERY_LENGTH);
  const driver = error.driverError;
  if (driver && typeof driver === 'object') {
    for (const key of ['code', 'constraint', 'table', 'column'] as const) {
      if (typeof driver[key] === 'string') safe[key === 'code' ? 'sqlState' : key] = driver[key];
    }
  }
  if (error.cause instanceof Error) safe.cause = safeErrorOf(error.cause);
  return safe;
}

export interface LoggingOptions {
  level: string;
  serviceName: string;
  /** Unset: readable lines on a terminal, JSON otherwise (a container, a file, a pipe). */
  format?: 'json' | 'pretty';
}

/** Every line written inside a span names it, so logs and traces meet (OpenTelemetry's field names). */
export function traceFieldsOfLogLine(): Record<string, string> {
  const ids = activeTraceIds();
  return ids ? { trace_id: ids.traceId, span_id: ids.spanId } : {};
}

/** What a developer reads in a terminal: time, level, service, context and message on one line, other fields below. */
function prettyDestination(): DestinationStream {
  return PinoPretty({
    colorize: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service,req,res,responseTime,context,requestId,trace_id,span_id',
    messageFormat:
      '{service} {if context}[{context}] {end}{msg}{if req} {req.method} {req.url} → {res.statusCode} in {responseTime} ms{end}',
    singleLine: false,
    sync: true,
  });
}

/**
 * Standard output, written asynchronously: a request appends its lines to a buffer that is written
 * while the event loop serves the next ones, instead of a write system call per line on the request's
 * path (about a tenth of a search's CPU over HTTP; docs/benchmarks.md, "The HTTP path"). pino flushes
 * what is buffered when the process exits.
 */
function jsonDestination(): DestinationStream {
  return destination({ dest: 1, sync: false });
}

/**
 * Logs with pino: one line per request, and every line written while serving a request carries its
 * `requestId` (and, when traced, its `trace_id` and `span_id`). JSON for machines, readable lines on
 * a terminal. Credentials never reach the log.
 */
export function loggingModule(options: LoggingOptions): DynamicModule {
  const format = options.format ?? (process.stdout.isTTY ? 'pretty' : 'json');
  const pinoOptions: PinoHttpOptions = {
    level: options.level,
    mixin: traceFieldsOfLogLine,
    base: { service: options.serviceName },
    genReqId: requestIdOf,
    quietReqLogger: true,
    customAttributeKeys: { reqId: 'requestId' },
    redact: {
      // Credentials and personal fields, wherever a log line's object carries them.
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        ...PERSONAL_FIELDS,
        ...PERSONAL_FIELDS.map((field) => `*.${field}`),
      ],
      censor: '[redacted]',
    },
    serializers: {
      err: safeErrorOf,
      req: (req: { method: string; url: string; headers: Record<string, unknown> }) => ({
        method: req.method,
        url: req.url,
        userAgent: req.headers['user-agent'],
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    // A 5xx line carries the error the filter recorded (res.err), so each failure logs one stack.
    // A 503 (the database unreachable) is a warning with a one-line cause: an outage answers
    // every request with it, and readiness already tells the platform.
    customLogLevel: (_req, res, err) =>
      res.statusCode === 503
        ? 'warn'
        : err || res.statusCode >= 500
          ? 'error'
          : res.statusCode >= 400
            ? 'warn'
            : 'info',
  };
  return LoggerModule.forRoot({
    // nestjs-pino's default route pattern (`*`) is the legacy syntax path-to-regexp 8 warns about.
    forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
    pinoHttp: [pinoOptions, format === 'pretty' ? prettyDestination() : jsonDestination()],
  });
}

/** Nest's own start-up lines: module by module, route by route. Read when debugging, not on every start. */
const FRAMEWORK_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

/** The context Nest's Logger passes last, when it passes one. */
const contextOf = (optionalParams: unknown[]): unknown => optionalParams[optionalParams.length - 1];

/**
 * The app's logger as Nest's own lines see it: the framework's start-up lines at debug, so a start
 * at `info` shows what the service says. The controllers' header lines (`RoutesResolver`,
 * `Controller {/api/metrics}:`) are left out: Nest prefixes them with the global prefix whatever
 * the prefix's exclusions, as it checks those per route only, so `/metrics` and `/health/*` read
 * as `/api/…` there; the route lines (`RouterExplorer`, `Mapped {/metrics, GET} route`) carry the
 * real paths.
 */
export function frameworkLinesAtDebug(logger: LoggerService): LoggerService {
  const isFramework = (optionalParams: unknown[]) => {
    const context = contextOf(optionalParams);
    return typeof context === 'string' && FRAMEWORK_CONTEXTS.has(context);
  };
  return {
    log: (message: unknown, ...optionalParams: unknown[]) => {
      if (contextOf(optionalParams) === 'RoutesResolver') return;
      if (isFramework(optionalParams)) logger.debug?.(message, ...optionalParams);
      else logger.log(message, ...optionalParams);
    },
    error: (message: unknown, ...optionalParams: unknown[]) => logger.error(message, ...optionalParams),
    warn: (message: unknown, ...optionalParams: unknown[]) => logger.warn(message, ...optionalParams),
    debug: (message: unknown, ...optionalParams: unknown[]) => logger.debug?.(message, ...optionalParams),
    verbose: (message: unknown, ...optionalParams: unknown[]) => logger.verbose?.(message, ...optionalParams),
    fatal: (message: unknown, ...optionalParams: unknown[]) => logger.fatal?.(message, ...optionalParams),
  };
}
