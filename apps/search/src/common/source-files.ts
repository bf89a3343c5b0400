import { join } from 'node:path';

/**
 * The path of a file committed under apps/search/src, the same from src/ (ts-jest, ts-node) and from
 * dist/ (the built service): the service reads its reviewed data there, which the build does not
 * copy (package.json `files` ships it).
 */
export function sourceFilePath(...segments: string[]): string {
  return join(__dirname, '..', '..', 'src', ...segments);
}
