import { ErrorCode } from '@rt/errors';
import {
  GENERATION_TRIES,
  isInternalDatabaseError,
  retryOnceOnInternalError,
  retryWhileGenerationChanges,
} from './listing-retries';
import { GENERATION_CHANGED } from './listing-row';

const failure = (code: string) => Object.assign(new Error(`failed with ${code}`), { code });
const wrapped = (code: string) => Object.assign(new Error('query failed'), { driverError: { code } });

describe('isInternalDatabaseError', () => {
  it.each(['XX000', 'XX001', 'XX002'])('knows %s, bare or wrapped by TypeORM', (code) => {
    expect(isInternalDatabaseError(failure(code))).toBe(true);
    expect(isInternalDatabaseError(wrapped(code))).toBe(true);
  });

  it.each(['57P01', '22P02', '08006', 'ECONNRESET', 'XX'])('leaves %s alone', (code) => {
    expect(isInternalDatabaseError(failure(code))).toBe(false);
  });

  it('leaves errors without a code alone', () => {
    expect(isInternalDatabaseError(new Error('boom'))).toBe(false);
    expect(isInternalDatabaseError(undefined)).toBe(false);
  });
});

describe('retryOnceOnInternalError', () => {
  it('answers the second try after an internal error, and reports the first', async () => {
    const answers = [() => Promise.reject(wrapped('XX000')), () => Promise.resolve('page')];
    const retried: unknown[] = [];
    const read = jest.fn(() => answers.shift()!());
    await expect(retryOnceOnInternalError(read, (error) => retried.push(error))).resolves.toBe('page');
    expect(read).toHaveBeenCalledTimes(2);
    expect(retried).toHaveLength(1);
  });

  it('throws a second internal error', async () => {
    const read = jest.fn(() => Promise.reject(failure('XX002')));
    await expect(retryOnceOnInternalError(read, () => undefined)).rejects.toMatchObject({ code: 'XX002' });
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('does not retry other errors', async () => {
    const read = jest.fn(() => Promise.reject(failure('57P01')));
    await expect(retryOnceOnInternalError(read, () => undefined)).rejects.toMatchObject({ code: '57P01' });
    expect(read).toHaveBeenCalledTimes(1);
  });
});

describe('retryWhileGenerationChanges', () => {
  it('lists again after loading the new generation, and answers the first listing that reads it', async () => {
    const events: string[] = [];
    const answers = ['page', GENERATION_CHANGED] as const;
    let tries = 0;
    const listed = await retryWhileGenerationChanges(
      () => {
        events.push(`list ${++tries}`);
        return Promise.resolve(answers[tries === 1 ? 1 : 0]);
      },
      () => {
        events.push('load');
        return Promise.resolve();
      },
    );
    expect(listed).toBe('page');
    expect(events).toEqual(['list 1', 'load', 'list 2']);
  });

  it('answers 503 service_unavailable, with Retry-After, when every try reads another generation', async () => {
    const list = jest.fn(() => Promise.resolve(GENERATION_CHANGED));
    const load = jest.fn(() => Promise.resolve());
    await expect(retryWhileGenerationChanges(list, load)).rejects.toMatchObject({
      code: ErrorCode.ServiceUnavailable,
      status: 503,
      headers: { 'Retry-After': '1' },
    });
    expect(list).toHaveBeenCalledTimes(GENERATION_TRIES);
    expect(GENERATION_TRIES).toBe(3);
  });
});
