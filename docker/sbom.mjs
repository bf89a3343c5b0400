// The image's CycloneDX SBOM: `node docker/sbom.mjs /out` in a Dockerfile's build stage, after
// `pnpm deploy --prod` has put into /out what the image runs, writes /out/sbom.cdx.json (so
// /app/sbom.cdx.json in the image, named by the label org.opencontainers.image.sbom).
//
// The generator is @cyclonedx/cyclonedx-npm (a root devDependency, pinned in the lockfile), over the
// deployed folder's package.json and node_modules, production dependencies only. It reads the tree
// with `npm ls`, which on pnpm's layout reports the devDependencies of every linked package as
// missing (they are not deployed), hence `--ignore-npm-errors`; and it does not see the optional
// peers that pnpm installs (debug's supports-color, for one). So every package of the deployed
// virtual store (node_modules/.pnpm) that the generator left out is added from its own package.json,
// marked with the property road-trip:sbom:source. `pnpm check:images` compares the result with
// `pnpm list --prod` of the service and fails on any package it does not name.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const folder = resolve(process.argv[2] ?? '/out');
const output = join(folder, 'sbom.cdx.json');
const generator = join(root, 'node_modules', '.bin', 'cyclonedx-npm');

const run = spawnSync(
  generator,
  [
    '--omit',
    'dev',
    '--ignore-npm-errors',
    '--spec-version',
    '1.6',
    '--output-format',
    'JSON',
    '--output-reproducible',
    '--mc-type',
    'application',
    '--output-file',
    output,
    join(folder, 'package.json'),
  ],
  { cwd: folder, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
);
if (run.status !== 0 || !existsSync(output)) {
  process.stderr.write(`${run.stdout ?? ''}${run.stderr ?? ''}${run.error ? `${run.error.message}\n` : ''}`);
  console.error(`[sbom] ${generator} exited with ${run.status}`);
  process.exit(1);
}

const bom = JSON.parse(readFileSync(output, 'utf8'));
const named = new Set();
const collect = (components = []) => {
  for (const c of components) {
    named.add(`${c.group ? `${c.group}/` : ''}${c.name}@${c.version}`);
    collect(c.components);
  }
};
collect(bom.components);

/** The packages of the deployed virtual store: in each entry, the package itself is the one real folder. */
function deployed() {
  const store = join(folder, 'node_modules', '.pnpm');
  const found = [];
  for (const entry of existsSync(store) ? readdirSync(store) : []) {
    const modules = join(store, entry, 'node_modules');
    if (!existsSync(modules)) continue;
    for (const name of readdirSync(modules)) {
      const paths = name.startsWith('@')
        ? readdirSync(join(modules, name)).map((inner) => join(modules, name, inner))
        : [join(modules, name)];
      for (const path of paths) {
        if (lstatSync(path).isSymbolicLink() || !existsSync(join(path, 'package.json'))) continue;
        found.push(path);
      }
    }
  }
  return found.sort();
}

const purl = (name, version) =>
  `pkg:npm/${name.startsWith('@') ? `%40${name.slice(1)}` : name}@${encodeURIComponent(version)}`;

const added = [];
for (const path of deployed()) {
  const manifest = JSON.parse(readFileSync(join(path, 'package.json'), 'utf8'));
  const key = `${manifest.name}@${manifest.version}`;
  if (!manifest.name || !manifest.version || named.has(key)) continue;
  named.add(key);
  const slash = manifest.name.startsWith('@') ? manifest.name.indexOf('/') : -1;
  const license = typeof manifest.license === 'string' ? manifest.license : manifest.license?.type;
  const where = relative(folder, path);
  added.push({
    type: 'library',
    'bom-ref': `${key}|${where}`,
    ...(slash > 0 ? { group: manifest.name.slice(0, slash) } : {}),
    name: slash > 0 ? manifest.name.slice(slash + 1) : manifest.name,
    version: manifest.version,
    ...(manifest.description ? { description: manifest.description } : {}),
    ...(license ? { licenses: [{ expression: license }] } : {}),
    purl: purl(manifest.name, manifest.version),
    properties: [
      { name: 'cdx:npm:package:path', value: where },
      { name: 'road-trip:sbom:source', value: 'node_modules/.pnpm (not reached by npm ls)' },
    ],
  });
}
bom.components = [...(bom.components ?? []), ...added];
writeFileSync(output, `${JSON.stringify(bom, null, 2)}\n`);
console.log(
  `[sbom] ${relative(process.cwd(), output) || output}: ${named.size} packages ` +
    `(${added.length} from the virtual store: ${added.map((c) => `${c.group ? `${c.group}/` : ''}${c.name}@${c.version}`).join(', ') || 'none'})`,
);
