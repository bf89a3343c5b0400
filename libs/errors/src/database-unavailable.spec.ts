import { isDatabaseUnavailable } from './database-unavailable';
import { toAppError } from './http-exception.filter';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });
/** The shape of TypeORM's QueryFailedError: the driver's error rides along as `driverError`. */
const queryFailed = (driverError: Error) =>
  Object.assign(new Error(driverError.message), { name: 'QueryFailedError', driverError });

describe('isDatabaseUnavailable', () => {
  it('knows a refused, reset or timed-out socket', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE']) {
      expect(isDatabaseUnavailable(withCode(code))).toBe(true);
    }
  });

  it('knows a server that shuts down, crashed, starts up or is full, and class 08', () => {
    for (const code of ['57P01', '57P02', '57P03', '53300', '08006', '08001']) {
      expect(isDatabaseUnavailable(withCode(code))).toBe(true);
    }
  });

  it("knows node-postgres's and pg-pool's messages for a lost or unobtainable connection", () => {
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
  });

  it("knows TypeORM's refusal of a query runner released after its connection failed", () => {
    const released = Object.assign(new Error('Query runner already released.'), {
      name: 'QueryRunnerAlreadyReleasedError',
    });
    expect(isDatabaseUnavailable(released)).toBe(true);
  });

  it('looks inside TypeORM query errors and aggregate connection errors', () => {
    const crashed = queryFailed(withCode('57P01'));
    expect(isDatabaseUnavailable(crashed)).toBe(true);
    const refused = new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]);
    expect(isDatabaseUnavailable(refused)).toBe(true);
  });

  it('leaves query errors that are the request’s or the code’s own', () => {
    expect(isDatabaseUnavailable(queryFailed(withCode('23505')))).toBe(false);
    expect(isDatabaseUnavailable(queryFailed(withCode('42P01')))).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });

  it('answers 503 service_unavailable with Retry-After, without details', () => {
    const error = toAppError(withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'));
    expect(error.status).toBe(503);
    expect(error.headers).toEqual({ 'Retry-After': '5' });
    expect(error.toBody()).toEqual({
      message: 'A service this request needs cannot be reached; try again shortly.',
      error: 'service_unavailable',
    });
  });
});
