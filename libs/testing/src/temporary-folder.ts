import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A temporary folder of the test file's own (`prefix` and random letters, in the OS's temporary
 * folder): made before the tests of the enclosing `describe` (before each one with `'each'`) and
 * removed after. Call it in the `describe`'s body; read `path` in its tests and hooks.
 */
export function temporaryFolder(prefix: string, lifetime: 'all' | 'each' = 'all'): { readonly path: string } {
  let current: string | undefined;
  const [before, after] = lifetime === 'each' ? [beforeEach, afterEach] : [beforeAll, afterAll];
  before(async () => {
    current = await mkdtemp(join(tmpdir(), prefix));
  });
  after(async () => {
    if (current) await rm(current, { recursive: true, force: true });
    current = undefined;
  });
  return {
    get path(): string {
      if (!current) throw new Error(`the temporary folder ${prefix}… exists only while the tests run`);
      return current;
    },
  };
}
