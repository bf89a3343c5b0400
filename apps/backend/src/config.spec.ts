import { join, resolve } from 'node:path';
import { ConfigError } from '@rt/platform';
import { loadBackendConfig } from './config';

describe('loadBackendConfig', () => {
  it('has the documented defaults', () => {
    const config = loadBackendConfig({});
    expect(config).toMatchObject({
      TOKEN_IDLE_DAYS: 30,
      PASSWORD_SCRYPT_N: 32768,
      PASSWORD_SCRYPT_R: 8,
      PASSWORD_SCRYPT_P: 3,
      PASSWORD_RESET_TTL_MINUTES: 60,
      THROTTLE_LOGIN_LIMIT: 5,
      THROTTLE_LOGIN_WINDOW_SECONDS: 300,
      THROTTLE_LOGIN_ADDRESS_LIMIT: 50,
      THROTTLE_PASSWORD_LIMIT: 5,
      THROTTLE_PASSWORD_ADDRESS_LIMIT: 20,
      THROTTLE_PASSWORD_WINDOW_SECONDS: 3600,
      THROTTLE_IMAGES_LIMIT: 100,
      THROTTLE_IMAGES_ADDRESS_LIMIT: 300,
      THROTTLE_IMAGES_WINDOW_SECONDS: 3600,
      IMAGE_MAX_WIDTH: 12_000,
      IMAGE_MAX_HEIGHT: 12_000,
      IMAGE_MAX_ASPECT_RATIO: 20,
      IMAGE_RESIZE_CONCURRENCY: 2,
      IMAGE_QUEUE_LIMIT: 16,
      port: 3000,
      migrateOnStart: true,
    });
  });

  it('keeps a local run together: mail and images beside the embedded database, wherever DATA_DIR puts it', () => {
    const repositoryRoot = resolve(__dirname, '..', '..', '..');
    expect(loadBackendConfig({})).toMatchObject({
      dataDir: join(repositoryRoot, '.data', 'backend'),
      mailDir: join(repositoryRoot, '.data', 'mail'),
      imageDir: join(repositoryRoot, '.data', 'images'),
    });
    expect(loadBackendConfig({ DATA_DIR: '/srv/demo/backend' })).toMatchObject({
      dataDir: '/srv/demo/backend',
      mailDir: '/srv/demo/mail',
      imageDir: '/srv/demo/images',
    });
    expect(
      loadBackendConfig({ DATA_DIR: '/srv/demo/backend', MAIL_DIR: '/var/mail/rt', IMAGE_DIR: 'pictures' }),
    ).toMatchObject({ mailDir: '/var/mail/rt', imageDir: resolve('pictures') });
  });

  it('reads the per-address throttle budgets, positive integers', () => {
    expect(
      loadBackendConfig({ THROTTLE_LOGIN_ADDRESS_LIMIT: '80', THROTTLE_PASSWORD_ADDRESS_LIMIT: '30' }),
    ).toMatchObject({ THROTTLE_LOGIN_ADDRESS_LIMIT: 80, THROTTLE_PASSWORD_ADDRESS_LIMIT: 30 });
    expect(() => loadBackendConfig({ THROTTLE_LOGIN_ADDRESS_LIMIT: '0' })).toThrow(
      /THROTTLE_LOGIN_ADDRESS_LIMIT/,
    );
    expect(() => loadBackendConfig({ THROTTLE_PASSWORD_ADDRESS_LIMIT: 'many' })).toThrow(
      /THROTTLE_PASSWORD_ADDRESS_LIMIT/,
    );
  });

  it('refuses an scrypt cost that is not a power of two', () => {
    expect(() => loadBackendConfig({ PASSWORD_SCRYPT_N: '3000' })).toThrow(ConfigError);
    expect(loadBackendConfig({ PASSWORD_SCRYPT_N: '4096' }).PASSWORD_SCRYPT_N).toBe(4096);
  });

  it('requires a long CONTRACT_ACCESS_TOKEN outside the local environment, and a valid admin password', () => {
    expect(() => loadBackendConfig({ APP_ENV: 'production' })).toThrow(/CONTRACT_ACCESS_TOKEN/);
    expect(() => loadBackendConfig({ APP_ENV: 'production' })).toThrow(/IMGPROXY_KEY.*hex-encoded/);
    expect(() =>
      loadBackendConfig({ APP_ENV: 'production', IMGPROXY_KEY: 'not hex at all, not hex at all, !!' }),
    ).toThrow(/IMGPROXY_KEY/);
    expect(() => loadBackendConfig({ APP_ENV: 'production', CONTRACT_ACCESS_TOKEN: 'short' })).toThrow(
      ConfigError,
    );
    expect(() => loadBackendConfig({ ADMIN_PASSWORD: 'too short' })).toThrow(/ADMIN_PASSWORD/);
  });

  it('needs the imgproxy pair outside the local environment, and a bucket for the S3 storage', () => {
    const deployed = {
      APP_ENV: 'production',
      CONTRACT_ACCESS_TOKEN: 'c'.repeat(40),
      IMGPROXY_KEY: 'ab'.repeat(32),
      IMGPROXY_SALT: 'cd'.repeat(32),
    };
    expect(loadBackendConfig(deployed).IMGPROXY_KEY).toBe('ab'.repeat(32));
    expect(() => loadBackendConfig({ ...deployed, IMGPROXY_SALT: undefined })).toThrow(/IMGPROXY_SALT/);
    expect(() => loadBackendConfig({ IMAGE_STORAGE: 's3' })).toThrow(/S3_BUCKET/);
    expect(loadBackendConfig({ IMAGE_STORAGE: 's3', S3_BUCKET: 'images' }).S3_BUCKET).toBe('images');
    expect(() => loadBackendConfig({ IMAGE_STORAGE: 'ftp' })).toThrow(/IMAGE_STORAGE/);
  });

  it('keeps the images decoded at once below the libuv thread pool, so password hashing always has a thread', () => {
    expect(() => loadBackendConfig({ IMAGE_RESIZE_CONCURRENCY: '4' })).toThrow(
      /IMAGE_RESIZE_CONCURRENCY must be below UV_THREADPOOL_SIZE/,
    );
    const raised = loadBackendConfig({ IMAGE_RESIZE_CONCURRENCY: '4', UV_THREADPOOL_SIZE: '8' });
    expect(raised.IMAGE_RESIZE_CONCURRENCY).toBe(4);
  });
});
