import {
  BaseEnv,
  BooleanSetting,
  ConfigError,
  FloatSetting,
  IntSetting,
  ListSetting,
  loadConfig,
  loadSections,
  OneOfSetting,
  parseTrustProxy,
  sectionProviders,
} from './config';
import { IsString, ValidateIf } from 'class-validator';

describe('loadConfig', () => {
  it('applies defaults when variables are unset or empty', () => {
    const config = loadConfig(BaseEnv, { APP_ENV: '', LOG_LEVEL: undefined });
    expect(config.APP_ENV).toBe('local');
    expect(config.LOG_LEVEL).toBe('info');
    expect(config.BODY_LIMIT_BYTES).toBe(1024 * 1024);
    expect(config.HOST).toBe('127.0.0.1');
  });

  it('reads HOST as an IP address or a host name, and refuses anything else', () => {
    for (const host of ['0.0.0.0', '::', '::1', '10.1.2.3', 'localhost', 'api.internal', 'my-host']) {
      expect(loadConfig(BaseEnv, { HOST: host }).HOST).toBe(host);
    }
    for (const host of ['http://localhost', 'localhost:3000', '[::1]', 'two words', '-bad-', '999.1.1.1.1']) {
      expect(() => loadConfig(BaseEnv, { HOST: host })).toThrow(
        /HOST: HOST must be an IP address or a host name/,
      );
    }
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

class MailSection {
  @IntSetting({ min: 1, max: 10 })
  MAIL_ATTEMPTS: number = 3;

  @ListSetting()
  MAIL_TAGS: string[] = [];
}

class SearchSection {
  @FloatSetting({ min: 0, max: 1 })
  SEARCH_WEIGHT?: number;

  @BooleanSetting()
  SEARCH_FALLBACK: boolean = false;

  @OneOfSetting(['a', 'b'])
  SEARCH_MODE: 'a' | 'b' = 'a';
}

class DeploymentSection {
  @ValidateIf((section: DeploymentSection & Pick<BaseEnv, 'APP_ENV'>) => section.APP_ENV !== 'local')
  @IsString({ message: 'DEPLOY_TOKEN is required outside the local environment' })
  DEPLOY_TOKEN?: string;
}

class ClashingSection {
  @IntSetting()
  MAIL_ATTEMPTS?: number;
}

describe('loadSections', () => {
  it('reads each section from the one environment into one object', () => {
    const config = loadSections([BaseEnv, MailSection, SearchSection], {
      PORT: '8080',
      MAIL_ATTEMPTS: '7',
      MAIL_TAGS: 'a, b,,c',
      SEARCH_WEIGHT: '.25',
      SEARCH_FALLBACK: 'yes',
      UNRELATED: 'x',
    });
    expect(config).toMatchObject({
      PORT: 8080,
      APP_ENV: 'local',
      MAIL_ATTEMPTS: 7,
      MAIL_TAGS: ['a', 'b', 'c'],
      SEARCH_WEIGHT: 0.25,
      SEARCH_FALLBACK: true,
      SEARCH_MODE: 'a',
    });
    expect(config).not.toHaveProperty('UNRELATED');
  });

  it('names every bad variable of every section at once', () => {
    expect(() =>
      loadSections([BaseEnv, MailSection, SearchSection], {
        PORT: 'eighty',
        MAIL_ATTEMPTS: '11',
        SEARCH_WEIGHT: '1.5',
        SEARCH_MODE: 'c',
      }),
    ).toThrow(/PORT[\s\S]*MAIL_ATTEMPTS[\s\S]*SEARCH_WEIGHT[\s\S]*SEARCH_MODE/);
  });

  it("lets a section's rules read the sections before it, defaults applied, and keeps only its own", () => {
    expect(loadSections([BaseEnv, DeploymentSection], {})).toMatchObject({ APP_ENV: 'local' });
    expect(() => loadSections([BaseEnv, DeploymentSection], { APP_ENV: 'production' })).toThrow(
      /DEPLOY_TOKEN \(not set\): DEPLOY_TOKEN is required outside the local environment/,
    );
    const deployed = loadSections([BaseEnv, DeploymentSection], { APP_ENV: 'production', DEPLOY_TOKEN: 't' });
    expect(deployed).toMatchObject({ APP_ENV: 'production', DEPLOY_TOKEN: 't' });
    expect(loadConfig(DeploymentSection, { APP_ENV: 'local', DEPLOY_TOKEN: 't', OTHER: 'x' })).toEqual(
      Object.assign(new DeploymentSection(), { DEPLOY_TOKEN: 't' }),
    );
  });

  it('refuses two sections that claim the same variable', () => {
    expect(() => loadSections([MailSection, ClashingSection], {})).toThrow(
      /MAIL_ATTEMPTS is a setting of both MailSection and ClashingSection/,
    );
  });

  it('gives each section class the one configuration object', () => {
    const config = loadSections([MailSection, SearchSection], {});
    expect(sectionProviders(config, [MailSection, SearchSection])).toEqual([
      { provide: MailSection, useValue: config },
      { provide: SearchSection, useValue: config },
    ]);
  });
});
