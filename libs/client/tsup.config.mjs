// `pnpm --filter @rt/client build`: ESM (index.mjs) and CommonJS (index.cjs) builds of src/index.ts
// with their type declarations, for browsers and Node 20+ (openapi-fetch stays a dependency).
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  outExtension: ({ format }) => ({ js: format === 'esm' ? '.mjs' : '.cjs' }),
  dts: true,
  tsconfig: 'tsconfig.build.json',
  target: 'es2022',
  platform: 'neutral',
  sourcemap: true,
  clean: true,
});
