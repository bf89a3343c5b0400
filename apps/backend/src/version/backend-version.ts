import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The backend's version: the image's build value `VERSION_TAG` when it has one (docker/backend.Dockerfile),
 * else its package.json, found the same way from `src/` and from `dist/`.
 */
export const BACKEND_VERSION: string =
  process.env.VERSION_TAG?.trim() ||
  (JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string })
    .version;
