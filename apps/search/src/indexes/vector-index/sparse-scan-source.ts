import { readFileSync } from 'node:fs';
import { sourceFilePath } from '../../common/source-files';
import initialiseWabt from 'wabt';

/** sparse-scan.wat, the kernel's source (read from src/: the build does not copy it). */
export const SPARSE_SCAN_WAT_PATH = sourceFilePath('indexes', 'vector-index', 'sparse-scan.wat');
/** The generated module's bytes, committed (sparse-scan.wasm.ts). */
export const SPARSE_SCAN_WASM_PATH = sourceFilePath('indexes', 'vector-index', 'sparse-scan.wasm.ts');

/**
 * sparse-scan.wat compiled by wabt (a development dependency, pinned), as the text of
 * sparse-scan.wasm.ts: the service loads the bytes and needs neither wabt nor the source.
 */
export async function sparseScanModuleSource(): Promise<string> {
  const wabt = await initialiseWabt();
  const parsed = wabt.parseWat('sparse-scan.wat', readFileSync(SPARSE_SCAN_WAT_PATH, 'utf8'), {
    simd: true,
  });
  try {
    parsed.validate();
    const { buffer } = parsed.toBinary({});
    const base64 = Buffer.from(buffer).toString('base64');
    return (
      '// Generated from sparse-scan.wat by `pnpm --filter search wasm:build`: do not edit.\n' +
      `export const SPARSE_SCAN_WASM = '${base64}';\n`
    );
  } finally {
    parsed.destroy();
  }
}
