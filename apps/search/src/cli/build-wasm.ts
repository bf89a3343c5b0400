import { writeFileSync } from 'node:fs';
import { SPARSE_SCAN_WASM_PATH, sparseScanModuleSource } from '../indexes/vector-index/sparse-scan-source';

/** Writes sparse-scan.wasm.ts from sparse-scan.wat (`pnpm --filter search wasm:build`). */
async function main(): Promise<void> {
  writeFileSync(SPARSE_SCAN_WASM_PATH, await sparseScanModuleSource());
  console.log(`wrote ${SPARSE_SCAN_WASM_PATH}`);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
