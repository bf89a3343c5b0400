/**
 * Errors that mean "the database cannot be reached right now" rather than "this request is wrong":
 * the server refused or dropped the connection, is shutting down or starting up, or the pool could
 * not get a connection in time. Such a request is answered 503 with `Retry-After`, like readiness,
 * and the pool reconnects by itself once the server is back. (The socket codes are not the
 * database's alone: another dependency refusing its connection, such as S3, is a 503 as well.)
 */
const SOCKET_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** SQLSTATEs: 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now, 53300 too_many_connections. */
const SERVER_UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** node-postgres and pg-pool report a lost or unobtainable connection only in their messages. */
const CONNECTION_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end on the pool',
];

interface DriverLikeError {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  driverError?: unknown;
  cause?: unknown;
}

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 3 || typeof error !== 'object' || error === null) return false;
  const { name, code, message, driverError, cause } = error as DriverLikeError;
  // TypeORM releases a query runner whose connection failed and refuses its next statement (the
  // second query of getManyAndCount, a COMMIT) with this error instead of the connection's own.
  if (name === 'QueryRunnerAlreadyReleasedError') return true;
  if (typeof code === 'string') {
    // Class 08: connection exceptions.
    if (SOCKET_ERROR_CODES.has(code) || SERVER_UNAVAILABLE_STATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) {
      return true;
    }
  }
  if (typeof message === 'string' && CONNECTION_MESSAGES.some((known) => message.includes(known)))
    return true;
  // TypeORM's QueryFailedError wraps the driver's error; Node's AggregateError (a refused
  // connection on both IPv4 and IPv6) and wrapped errors carry theirs as `errors` or `cause`.
  const nested = [
    driverError,
    cause,
    ...((error as { errors?: unknown }).errors instanceof Array
      ? (error as { errors: unknown[] }).errors
      : []),
  ];
  return nested.some((inner) => isDatabaseUnavailable(inner, depth + 1));
}
