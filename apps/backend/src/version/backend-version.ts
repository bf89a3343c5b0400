import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The backend's version: its package.json, found the same way from `src/` and from `dist/`. */
export const BACKEND_VERSION: string = (
  JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }
).version;
