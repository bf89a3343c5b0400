// Shared by deploy-check.spec.ts and deploy-check.tools.spec.ts: a copy of the repository that a
// test may break. Not part of the check itself (tsconfig.json leaves it out of dist).
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';

export const repositoryRoot = join(__dirname, '..', '..');
const skipped = new Set(['node_modules', 'dist', '.git', '.data', '.test-results', 'coverage']);

/** A copy of the repository (sources only) that a test may break. */
export function copyOfRepository(): string {
  const copy = mkdtempSync(join(tmpdir(), 'deploy-check-'));
  cpSync(repositoryRoot, copy, {
    recursive: true,
    filter: (source) =>
      !relative(repositoryRoot, source)
        .split(sep)
        .some((part) => skipped.has(part)),
  });
  return copy;
}

/** Replaces `search` by `replacement` in one file of the copy, and fails when it is not there. */
export function edit(root: string, file: string, search: string | RegExp, replacement: string): void {
  const path = join(root, file);
  const text = readFileSync(path, 'utf8');
  const changed = text.replace(search, replacement);
  if (changed === text) throw new Error(`${file} does not contain ${String(search)}`);
  writeFileSync(path, changed);
}
