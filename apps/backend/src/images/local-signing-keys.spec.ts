import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@rt/platform';
import { loadBackendConfig } from '../config';
import { imagePath, parseImageRequest, signedUrl } from './image-urls';
import { signingPairOf } from './imgproxy-signature';
import {
  applyLocalSigningKeys,
  localSigningKeyFile,
  readOrCreateSigningKeys,
  type SigningKeys,
} from './local-signing-keys';

const pairOf = (keys: SigningKeys) => signingPairOf(keys.IMGPROXY_KEY, keys.IMGPROXY_SALT);

describe('the signing pair of a local run, kept in DATA_DIR', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rt-signing-keys-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('is drawn once into a file only its owner reads (0600), then read again', async () => {
    const file = localSigningKeyFile(join(dir, 'backend'));
    expect(file).toBe(join(dir, 'keys', 'imgproxy.json'));
    const first = await readOrCreateSigningKeys(file);
    expect(first.created).toBe(true);
    expect(first.keys.IMGPROXY_KEY).toMatch(/^[0-9a-f]{64}$/);
    expect(first.keys.IMGPROXY_SALT).toMatch(/^[0-9a-f]{64}$/);
    expect(first.keys.IMGPROXY_SALT).not.toBe(first.keys.IMGPROXY_KEY);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'keys'))).mode & 0o077).toBe(0);

    const again = await readOrCreateSigningKeys(file);
    expect(again).toEqual({ file, keys: first.keys, created: false });
  });

  it('signs a URL before a restart that the restarted process still accepts', async () => {
    const file = localSigningKeyFile(join(dir, 'backend'));
    const image = { id: '3f1c1e9a-8a0e-4a57-9a39-0c7c8f3a5b21', format: 'jpeg' as const };
    const url = signedUrl(pairOf((await readOrCreateSigningKeys(file)).keys), imagePath(image, 600));
    const afterRestart = pairOf((await readOrCreateSigningKeys(file)).keys);
    expect(parseImageRequest(afterRestart, url.slice('/img'.length))).toEqual({
      outcome: 'image',
      image: { id: image.id, extension: 'jpg', width: 600 },
    });
  });

  it('gives processes starting at once one pair, and leaves no file aside', async () => {
    const file = localSigningKeyFile(join(dir, 'backend'));
    const results = await Promise.all(Array.from({ length: 8 }, () => readOrCreateSigningKeys(file)));
    expect(new Set(results.map(({ keys }) => keys.IMGPROXY_KEY)).size).toBe(1);
    expect(results.filter(({ created }) => created)).toHaveLength(1);
    const kept = JSON.parse(await readFile(file, 'utf8')) as SigningKeys;
    expect(kept).toEqual(results[0].keys);
    expect(await readdir(join(dir, 'keys'))).toEqual(['imgproxy.json']);
  });

  it('refuses a damaged file rather than draw a pair that breaks every URL handed out', async () => {
    const file = localSigningKeyFile(join(dir, 'backend'));
    await mkdir(join(dir, 'keys'));
    await writeFile(file, '{"IMGPROXY_KEY": "abc"}');
    await expect(readOrCreateSigningKeys(file)).rejects.toThrow(ConfigError);
    await expect(readOrCreateSigningKeys(file)).rejects.toThrow(/imgproxy\.json.*remove it/);
  });

  it('applies to a local run without a configured pair; configured values win', async () => {
    const dataDir = join(dir, 'backend');
    const local = loadBackendConfig({ DATA_DIR: dataDir });
    const applied = await applyLocalSigningKeys(local);
    expect(applied?.file).toBe(join(dir, 'keys', 'imgproxy.json'));
    expect(local.IMGPROXY_KEY).toBe(applied?.keys.IMGPROXY_KEY);
    expect(local.IMGPROXY_SALT).toBe(applied?.keys.IMGPROXY_SALT);

    const withKey = loadBackendConfig({ DATA_DIR: dataDir, IMGPROXY_KEY: 'ab'.repeat(32) });
    await applyLocalSigningKeys(withKey);
    expect(withKey.IMGPROXY_KEY).toBe('ab'.repeat(32));
    expect(withKey.IMGPROXY_SALT).toBe(applied?.keys.IMGPROXY_SALT);

    const configured = loadBackendConfig({
      DATA_DIR: join(dir, 'elsewhere', 'backend'),
      IMGPROXY_KEY: 'ab'.repeat(32),
      IMGPROXY_SALT: 'cd'.repeat(32),
    });
    await expect(applyLocalSigningKeys(configured)).resolves.toBeUndefined();
    await expect(stat(join(dir, 'elsewhere'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('is never drawn outside the local environment, which refuses to start without the pair', async () => {
    const deployed = {
      APP_ENV: 'production',
      CONTRACT_ACCESS_TOKEN: 'c'.repeat(40),
      DATA_DIR: join(dir, 'x'),
    };
    expect(() => loadBackendConfig(deployed)).toThrow(/IMGPROXY_KEY/);
    const config = loadBackendConfig({
      ...deployed,
      IMGPROXY_KEY: 'ab'.repeat(32),
      IMGPROXY_SALT: 'cd'.repeat(32),
    });
    await expect(applyLocalSigningKeys(config)).resolves.toBeUndefined();
    await expect(stat(join(dir, 'keys'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
