import { stdSerializers } from 'pino';
import { QueryFailedError } from 'typeorm';
import { safeErrorOf } from './logging';

describe('safeErrorOf', () => {
  it("keeps what explains a failed query and drops its values and PostgreSQL's detail", () => {
    const driverError = Object.assign(
      new Error('duplicate key value violates unique constraint "users_email_key"'),
      {
        code: '23505',
        constraint: 'users_email_key',
        table: 'users',
        detail: 'Key (email)=(ada@example.com) already exists.',
      },
    );
    const error = new QueryFailedError(
      'INSERT INTO users (email) VALUES ($1)',
      ['ada@example.com'],
      driverError,
    );
    // As pino-http calls it: wrapped around pino's standard serializer.
    const logged = safeErrorOf(stdSerializers.err(error));
    expect(logged).toMatchObject({
      type: 'QueryFailedError',
      message: 'duplicate key value violates unique constraint "users_email_key"',
      query: 'INSERT INTO users (email) VALUES ($1)',
      sqlState: '23505',
      constraint: 'users_email_key',
      table: 'users',
      stack: expect.stringContaining('QueryFailedError'),
    });
    expect(JSON.stringify(logged)).not.toContain('ada@example.com');
  });

  it("redacts the value PostgreSQL quotes in a failed query's message and stack", () => {
    const driverError = Object.assign(new Error('invalid input syntax for type uuid: "ada@example.com"'), {
      code: '22P02',
    });
    const error = new QueryFailedError('SELECT $1::uuid', ['ada@example.com'], driverError);
    const logged = safeErrorOf(stdSerializers.err(error));
    expect(logged.message).toBe('invalid input syntax for type uuid: "[redacted]"');
    expect(JSON.stringify(logged)).not.toContain('ada@example.com');
  });

  it('drops every other property an error carries, and cleans its cause', () => {
    const cause = Object.assign(new Error('inner'), { email: 'grace@example.com' });
    const error = Object.assign(new Error('outer', { cause }), { parameters: ['secret'], code: 'E_X' });
    const logged = safeErrorOf(error);
    expect(logged).toMatchObject({
      type: 'Error',
      message: 'outer',
      code: 'E_X',
      cause: { message: 'inner' },
    });
    expect(JSON.stringify(logged)).not.toMatch(/secret|grace/);
  });
});
