// `pnpm check:images`: builds both production images with podman and runs them against the
// machine's PostgreSQL (README.md beside this file).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureBase, ensureTools } from './base';
import { checkService, SHUTDOWN_GRACE_MS, type ServiceCheck } from './containers';
import { build, imageSize, mustPodman } from './podman';
import { CommandError, log } from './shell';
import { checkImageSbom } from './supply-chain';

const root = resolve(__dirname, '..', '..', '..');
const SERVICES = ['backend', 'search'] as const;
const VERSION_TAG = '0.0.0-image-check';
const BUILD_DATE = '2026-01-01T00:00:00Z';
/** Where each image's SBOM is written for a scanner (SBOM_DIR overrides). */
const SBOM_DIR = process.env.SBOM_DIR || join(root, 'scripts', 'image-check', 'dist', 'sbom');

/** The Dockerfiles' FROM (both the same: pnpm check:deploy pins it). */
function baseImage(): string {
  const froms = SERVICES.map((service) => {
    const text = readFileSync(join(root, 'docker', `${service}.Dockerfile`), 'utf8');
    return /^FROM\s+(\S+)/m.exec(text)?.[1];
  });
  if (!froms[0] || froms[0] !== froms[1])
    throw new Error(`the Dockerfiles start FROM ${froms.join(' and ')}: expected one image`);
  return froms[0];
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(0)} s`;

async function main(): Promise<number> {
  const started = Date.now();
  const adminUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  // The same build values every run: Debian 12's buildah (1.28) leaves their values out of its layer
  // cache key, so values that changed from run to run would be served stale from the cache.
  const versionTag = VERSION_TAG;
  const buildDate = BUILD_DATE;

  await ensureTools();
  const base = baseImage();
  let at = Date.now();
  log(`base image: ${await ensureBase(base)} (${seconds(at)})`);
  const baseSize = await imageSize(base);

  const images: Record<string, string> = {};
  for (const service of SERVICES) {
    const image = `localhost/road-trip-${service}:${versionTag}`;
    at = Date.now();
    log(`building ${image} (podman build -f docker/${service}.Dockerfile)`);
    const args = { VERSION_TAG: versionTag, BUILD_DATE: buildDate };
    for (const again of [false, true]) {
      const outcome = await build(root, `docker/${service}.Dockerfile`, image, args);
      if (outcome.code !== 0)
        throw new CommandError(
          `podman build of docker/${service}.Dockerfile exited with ${outcome.code}:`,
          outcome.output,
        );
      const env = await mustPodman([
        'image',
        'inspect',
        '--format',
        '{{range .Config.Env}}{{println .}}{{end}}',
        image,
      ]);
      if (env.includes(`VERSION_TAG=${versionTag}\n`) && env.includes(`BUILD_DATE=${buildDate}\n`)) break;
      if (again) throw new Error(`${image} does not carry the build values given:\n${env}`);
      // The cached layers were built with other values (by hand, or an older check): drop the image and
      // the build cache (untagged images), so that the second build makes, and caches, the right ones.
      log(`${image}: the layer cache held an earlier build's values; removing it and building again`);
      const ours = (await mustPodman(['images', '--format', '{{.Repository}}:{{.Tag}}']))
        .split('\n')
        .filter((name) => name.startsWith('localhost/road-trip-'));
      await mustPodman(['rmi', '--force', ...ours]);
      await mustPodman(['image', 'prune', '--force']);
    }
    const size = await imageSize(image);
    log(
      `built ${image} in ${seconds(at)}: ${mb(size)} (${mb(size - baseSize)} over the ${mb(baseSize)} base)`,
    );
    images[service] = image;
    at = Date.now();
    await checkImageSbom(root, service, image, SBOM_DIR);
    log(`${service}: SBOM and licences checked (${seconds(at)})`);
  }

  const password = randomBytes(18).toString('base64url');
  const email = 'admin@image-check.example.com';
  const hex = () => randomBytes(32).toString('hex');
  // Both images run as in production: migrations by their own command, not at start.
  const productionEnv = {
    APP_ENV: 'production',
    DB_MIGRATE_ON_START: 'false',
    LOG_LEVEL: 'info',
    SHUTDOWN_GRACE_MS: String(SHUTDOWN_GRACE_MS),
  };
  const checks: ServiceCheck[] = [
    {
      service: 'backend',
      image: images.backend,
      versionTag,
      port: 3000,
      env: {
        ...productionEnv,
        CONTRACT_ACCESS_TOKEN: hex(),
        IMGPROXY_KEY: hex(),
        IMGPROXY_SALT: hex(),
        MAIL_WORKER_ENABLED: 'false',
      },
      mounts: [],
      before: [
        { args: ['node', 'dist/cli/create-admin.js', '--email', email], env: { ADMIN_PASSWORD: password } },
      ],
      exercise: async (url) => {
        const version = (await (await fetch(`${url}/api/version`)).json()) as { version?: string };
        if (version.version !== versionTag)
          throw new Error(`GET /api/version answered ${JSON.stringify(version)}, not ${versionTag}`);
        log(`backend: GET /api/version ${versionTag}`);
        const login = await fetch(`${url}/api/login`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ email, password, device_name: 'image check' }),
        });
        const body = (await login.json()) as { token?: string };
        if (login.status !== 200 || !body.token)
          throw new Error(
            `POST /api/login of the created super-admin answered ${login.status}: ${JSON.stringify(body)}`,
          );
        log('backend: the super-admin of create-admin signs in (POST /api/login 200)');
      },
      inFlight: {
        method: 'POST',
        path: '/api/login',
        body: JSON.stringify({ email, password, device_name: 'image check, in flight at SIGTERM' }),
        status: 200,
      },
    },
    {
      service: 'search',
      image: images.search,
      versionTag,
      port: 3001,
      env: {
        ...productionEnv,
        CATALOGUE_SOURCE: '/catalogue/sample.ndjson',
      },
      mounts: [
        '--volume',
        `${join(root, 'apps/search/src/catalogue/sample.ndjson')}:/catalogue/sample.ndjson:ro`,
      ],
      before: [],
      exercise: async (url) => {
        const rootDoc = (await (await fetch(`${url}/`)).json()) as Record<string, unknown>;
        if (rootDoc['version-tag'] !== versionTag || rootDoc['build-date'] !== buildDate) {
          throw new Error(
            `GET / answered ${JSON.stringify(rootDoc)}, not version-tag ${versionTag} and build-date ${buildDate}`,
          );
        }
        log(`search: GET / version-tag ${versionTag}`);
        const found = await fetch(`${url}/travels?search=Kiruna`);
        const body = (await found.json()) as { totalRecords?: number; data?: unknown[] };
        if (found.status !== 200 || !body.totalRecords)
          throw new Error(
            `GET /travels?search=Kiruna answered ${found.status}: ${JSON.stringify(body).slice(0, 500)}`,
          );
        log(`search: the read-only catalogue indexed; GET /travels?search=Kiruna finds ${body.totalRecords}`);
      },
      inFlight: {
        method: 'GET',
        path: '/travels?search=Kiruna',
        body: JSON.stringify({ pad: 'x'.repeat(64) }),
        status: 200,
      },
    },
  ];
  for (const check of checks) {
    at = Date.now();
    await checkService(check, adminUrl);
    log(`${check.service}: every check passed (${seconds(at)})`);
  }
  log(`both images built and checked in ${seconds(started)}`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`[check:images] FAILED: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
