import { randomBytes, randomUUID } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ConfigError } from '@rt/platform';
import type { BackendConfig } from '../config';

/** The signing pair of a local run, hex-encoded as IMGPROXY_KEY and IMGPROXY_SALT take it. */
export interface SigningKeys {
  IMGPROXY_KEY: string;
  IMGPROXY_SALT: string;
}

export interface SigningKeyFile {
  file: string;
  keys: SigningKeys;
  /** Drawn and written by this call (the first start on this DATA_DIR). */
  created: boolean;
}

/**
 * Where a local run keeps its pair: `keys/imgproxy.json` beside the embedded database, like
 * `images` and `mail` (so `DATA_DIR=X pnpm start` keeps it in X/keys).
 */
export const localSigningKeyFile = (dataDir: string): string => join(dataDir, '..', 'keys', 'imgproxy.json');

const HEX_KEY = /^[0-9a-f]{64}$/;

function parseKeys(file: string, text: string): SigningKeys {
  let parsed: Partial<Record<keyof SigningKeys, unknown>> = {};
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    // reported below, like any other damage
  }
  const { IMGPROXY_KEY, IMGPROXY_SALT } = parsed ?? {};
  if (
    typeof IMGPROXY_KEY !== 'string' ||
    typeof IMGPROXY_SALT !== 'string' ||
    !HEX_KEY.test(IMGPROXY_KEY) ||
    !HEX_KEY.test(IMGPROXY_SALT)
  ) {
    throw new ConfigError([
      `IMGPROXY_KEY (not set): the local key file ${file} is not {"IMGPROXY_KEY": "<64 hex digits>", ` +
        '"IMGPROXY_SALT": "<64 hex digits>"}; remove it to draw a new pair (image URLs handed out ' +
        'before then stop working) or set IMGPROXY_KEY and IMGPROXY_SALT',
    ]);
  }
  return { IMGPROXY_KEY, IMGPROXY_SALT };
}

/**
 * The pair kept in `file`, drawn and written there on the first call (the file mode 0600, a new
 * folder 0700), so the image URLs a local run hands out outlive a restart. Processes starting at
 * once agree on one pair: the file is written aside, then linked into place, which fails when it
 * exists; the loser reads the winner's, never half a file.
 */
export async function readOrCreateSigningKeys(file: string): Promise<SigningKeyFile> {
  try {
    return { file, keys: parseKeys(file, await readFile(file, 'utf8')), created: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const keys: SigningKeys = {
    IMGPROXY_KEY: randomBytes(32).toString('hex'),
    IMGPROXY_SALT: randomBytes(32).toString('hex'),
  };
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const aside = `${file}.${randomUUID()}.tmp`;
  // `mode` applies when the file is created, before anything is written into it.
  await writeFile(aside, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(aside, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { file, keys: parseKeys(file, await readFile(file, 'utf8')), created: false };
  } finally {
    await rm(aside, { force: true });
  }
  return { file, keys, created: true };
}

/**
 * A local run without a configured pair (IMGPROXY_KEY, IMGPROXY_SALT) takes the one kept beside
 * its embedded database (localSigningKeyFile); a configured value wins over the file's. Outside
 * the local environment the configuration requires both (config.ts), so nothing is read or
 * written. Answers the file used, if any.
 */
export async function applyLocalSigningKeys(
  config: Pick<BackendConfig, 'APP_ENV' | 'dataDir' | keyof SigningKeys>,
): Promise<SigningKeyFile | undefined> {
  if (config.APP_ENV !== 'local') return undefined;
  if (config.IMGPROXY_KEY !== undefined && config.IMGPROXY_SALT !== undefined) return undefined;
  const kept = await readOrCreateSigningKeys(localSigningKeyFile(config.dataDir));
  config.IMGPROXY_KEY ??= kept.keys.IMGPROXY_KEY;
  config.IMGPROXY_SALT ??= kept.keys.IMGPROXY_SALT;
  return kept;
}
