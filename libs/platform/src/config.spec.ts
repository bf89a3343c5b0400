import { BaseEnv, ConfigError, loadConfig, parseTrustProxy } from './config';

describe('loadConfig', () => {
  it('applies defaults when variables are unset or empty', () => {
    const config = loadConfig(BaseEnv, { APP_ENV: '', LOG_LEVEL: undefined });
    expect(config.APP_ENV).toBe('local');
    expect(config.LOG_LEVEL).toBe('info');
    expect(config.BODY_LIMIT_BYTES).toBe(1024 * 1024);
  });

  it('converts numbers and booleans', () => {
    const config = loadConfig(BaseEnv, { PORT: '8080', DB_MIGRATE_ON_START: 'yes' });
    expect(config.PORT).toBe(8080);
    expect(config.DB_MIGRATE_ON_START).toBe(true);
  });

  it('names every bad variable', () => {
    let thrown: unknown;
    try {
      loadConfig(BaseEnv, { PORT: 'eighty', APP_ENV: 'prod' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    const message = (thrown as ConfigError).message;
    expect(message).toContain('PORT');
    expect(message).toContain('APP_ENV');
  });
});

describe('parseTrustProxy', () => {
  it.each([
    ['false', false],
    ['true', true],
    ['2', 2],
    ['10.0.0.0/8, loopback', ['10.0.0.0/8', 'loopback']],
  ])('%s', (given, expected) => {
    expect(parseTrustProxy(given)).toEqual(expected);
  });
});
