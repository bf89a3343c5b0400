// `pnpm --filter search build:preview` (part of the search service's build): bundles the preview
// page (src/app.ts and src/app.css, with @rt/client from its sources) into dist/preview-ui, which
// the service serves at /preview (src/http/preview). Type checks are tsc's (tsconfig.json), run first by
// the package script. `--outdir <folder>` writes the bundle elsewhere (the e2e test does).
import { build } from 'esbuild';
import { copyFile, mkdir, rm } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({ options: { outdir: { type: 'string' } } });
const outdir = values.outdir ?? join(here, '..', 'dist', 'preview-ui');

await rm(outdir, { recursive: true, force: true });
await mkdir(outdir, { recursive: true });
const result = await build({
  entryPoints: [
    { in: join(here, 'src', 'app.ts'), out: 'app' },
    { in: join(here, 'src', 'app.css'), out: 'app' },
  ],
  outdir,
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022', 'chrome111', 'firefox111', 'safari16'],
  tsconfig: join(here, 'tsconfig.json'),
  charset: 'utf8',
  legalComments: 'eof',
  metafile: true,
  logLevel: 'warning',
});
await copyFile(join(here, 'index.html'), join(outdir, 'index.html'));

const sizes = Object.entries(result.metafile.outputs)
  .map(([file, { bytes }]) => `${relative(outdir, file)} ${(bytes / 1024).toFixed(1)} kB`)
  .join(', ');
console.log(`[preview-ui] ${relative(process.cwd(), outdir) || '.'}: ${sizes}, index.html`);
