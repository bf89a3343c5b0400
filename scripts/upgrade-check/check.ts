// The upgrade check itself: the previous release built in a temporary worktree, fresh databases
// migrated to the new schema, both versions' services on them at once, each version's smoke flows.
import { freePort } from '@rt/testing';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { startLogged, stopService, tail, waitReady, type ServiceChild } from '../common/service-process';
import { initialCatalogue, writeCatalogue } from './catalogue';
import {
  commitMigrations,
  describeCommit,
  describeMigrations,
  git,
  gitHistory,
  choosePrevious,
  migrationChanges,
  SERVICES,
  workingMigrations,
  type MigrationSet,
  type PreviousRelease,
  type Service,
} from './previous';
import { RESULT_PREFIX, type SmokeResult } from './smoke';

export const DEFAULT_SERVER_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export interface CheckOptions {
  /** The repository whose working tree (and built dist) is the new version. */
  root: string;
  /** A commit or tag to use as the previous release instead of the rule's. */
  previous?: string;
  /** A PostgreSQL server with pgvector; the check creates and drops two databases on it. */
  serverUrl: string;
  /** Keep the temporary folder (logs, the worktree is removed all the same). */
  keep: boolean;
  log: (line: string) => void;
  /** True once a signal asks to stop. */
  aborted: () => boolean;
}

/** Everything to undo, in reverse order; run by `cleanup` on every path. */
const undo: { what: string; run: () => Promise<void> }[] = [];
let cleaning: Promise<string[]> | undefined;

/** Undoes what the check set up (services, databases, worktree, folder); answers what failed. */
export function cleanup(): Promise<string[]> {
  cleaning ??= (async () => {
    const problems: string[] = [];
    while (undo.length > 0) {
      const step = undo.pop()!;
      await step.run().catch((error: unknown) => problems.push(`${step.what}: ${String(error)}`));
    }
    return problems;
  })();
  return cleaning;
}

/** Services still running when the process ends without the cleanup (a second signal): killed. */
export const running: ServiceChild[] = [];

class CheckFailure extends Error {}

/** Runs a command to its end, its output in `logFile`; throws with the log's tail. */
async function runLogged(
  what: string,
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string>; logFile: string; timeoutMs: number },
): Promise<void> {
  const child = spawnInto(command, args, options);
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
  const [code, signal] = await exitOf(child);
  clearTimeout(timer);
  if (code !== 0) {
    throw new CheckFailure(
      `${what} failed (code ${code}, signal ${signal}):\n${await tail(options.logFile, 25)}`,
    );
  }
}

/** A child process whose output goes straight to `logFile`. */
function spawnInto(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string>; logFile: string },
): ChildProcess {
  const fd = openSync(options.logFile, 'a');
  try {
    return spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', fd, fd],
    });
  } finally {
    closeSync(fd);
  }
}

function exitOf(child: ChildProcess): Promise<[number | null, NodeJS.Signals | null]> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) done([child.exitCode, child.signalCode]);
    child.once('error', () => done([null, null]));
    child.once('exit', (code, signal) => done([code, signal]));
  });
}

/** Runs smoke-cli (a version's own flows) and answers its result line. */
async function runSmokeCli(
  script: string,
  args: Record<string, string>,
  options: { cwd: string; password: string; logFile: string; timeoutMs: number },
): Promise<SmokeResult> {
  const argv = Object.entries(args).flatMap(([name, value]) => [`--${name}`, value]);
  const child = spawnInto(process.execPath, [script, ...argv], {
    cwd: options.cwd,
    env: { UPGRADE_CHECK_ADMIN_PASSWORD: options.password },
    logFile: options.logFile,
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
  await exitOf(child);
  clearTimeout(timer);
  const output = await readFile(options.logFile, 'utf8').catch(() => '');
  const line = output
    .split('\n')
    .reverse()
    .find((candidate) => candidate.startsWith(RESULT_PREFIX));
  if (!line) {
    return {
      ok: false,
      requests: 0,
      error: `the smoke flows ended without a result:\n${await tail(options.logFile, 25)}`,
    };
  }
  return JSON.parse(line.slice(RESULT_PREFIX.length)) as SmokeResult;
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function onServer(serverUrl: string, statements: string[]): Promise<void> {
  const client = new Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

/** The new version's build must hold every migration of its working tree. */
function checkCurrentBuilt(root: string, current: MigrationSet): void {
  const missing: string[] = [];
  for (const service of SERVICES) {
    for (const file of ['main.js', 'database/migrate.js']) {
      if (!existsSync(join(root, 'apps', service, 'dist', file)))
        missing.push(`apps/${service}/dist/${file}`);
    }
    for (const name of current[service]) {
      const file = `apps/${service}/dist/database/migrations/${name}.js`;
      if (!existsSync(join(root, file))) missing.push(file);
    }
  }
  if (missing.length > 0) {
    throw new CheckFailure(
      `the new version is not built (missing ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ' …' : ''}): run \`pnpm build\` first (\`pnpm check:upgrade\` does)`,
    );
  }
}

const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/** The check; answers the exit code (0 passed, 1 failed). Call `cleanup()` afterwards on every path. */
export async function runCheck(options: CheckOptions): Promise<number> {
  const { root, log } = options;
  const startedAt = Date.now();
  const step = (line: string) => {
    if (options.aborted()) throw new CheckFailure('interrupted');
    log(line);
  };

  // 1. The previous release and what the new version adds to the schema.
  const current = workingMigrations(root);
  let previous: PreviousRelease | undefined;
  if (options.previous) {
    previous = {
      commit: git(root, ['rev-parse', `${options.previous}^{commit}`]),
      how: 'named with --previous',
    };
  } else {
    previous = choosePrevious(gitHistory(root), current);
  }
  if (!previous && git(root, ['rev-parse', '--is-shallow-repository']) === 'true') {
    throw new CheckFailure(
      'the clone is shallow and no commit of its history has other migrations: fetch the history (`git fetch --unshallow`; actions/checkout: fetch-depth: 0) or a release tag',
    );
  }
  if (!previous) {
    log(
      'no commit of the first-parent history has other migrations than the working tree: nothing to check, passed',
    );
    return 0;
  }
  const { added, removed } = migrationChanges(current, commitMigrations(root, previous.commit));
  const newMigrations = describeMigrations(added);
  log(`previous release: ${describeCommit(root, previous.commit)} (${previous.how})`);
  log(`migrations the previous release did not have: ${newMigrations}`);
  if (removed.backend.length + removed.search.length > 0) {
    log(
      `migrations the previous release had and the new version no longer lists: ${describeMigrations(removed)}`,
    );
  }
  checkCurrentBuilt(root, current);

  const workDir = await mkdtemp(join(tmpdir(), 'rt-upgrade-check-'));
  undo.push({
    what: `remove ${workDir}`,
    run: async () => {
      if (options.keep) log(`kept ${workDir} (logs)`);
      else await rm(workDir, { recursive: true, force: true });
    },
  });
  const dir = (name: string) => join(workDir, name);
  await Promise.all(['logs', 'mail', 'images'].map((name) => mkdir(dir(name))));
  const logFile = (name: string) => join(dir('logs'), `${name}.log`);
  const worktree = dir('previous');

  // 2. The previous version, built in a worktree; meanwhile the databases, on the new schema.
  const preparePrevious = async (): Promise<string> => {
    const since = Date.now();
    step(`building the previous version in ${worktree}`);
    git(root, ['worktree', 'add', '--detach', worktree, previous.commit]);
    undo.push({
      what: `remove the worktree ${worktree}`,
      run: async () => {
        try {
          git(root, ['worktree', 'remove', '--force', worktree]);
        } finally {
          await rm(worktree, { recursive: true, force: true });
          git(root, ['worktree', 'prune']);
        }
      },
    });
    const env = { CI: 'true' };
    try {
      await runLogged(
        'pnpm install --frozen-lockfile --offline (previous version)',
        'pnpm',
        ['install', '--frozen-lockfile', '--offline'],
        { cwd: worktree, env, logFile: logFile('previous-install'), timeoutMs: 300_000 },
      );
    } catch {
      log('the pnpm store lacks a package of the previous version: installing with --prefer-offline');
      await runLogged(
        'pnpm install --frozen-lockfile --prefer-offline (previous version)',
        'pnpm',
        ['install', '--frozen-lockfile', '--prefer-offline'],
        { cwd: worktree, env, logFile: logFile('previous-install'), timeoutMs: 600_000 },
      );
    }
    const tsc = join(worktree, 'node_modules', 'typescript', 'bin', 'tsc');
    await runLogged(
      'tsc -b of the previous version',
      process.execPath,
      [tsc, '-b', 'apps/backend/tsconfig.build.json', 'apps/search/tsconfig.build.json'],
      { cwd: worktree, env: {}, logFile: logFile('previous-build'), timeoutMs: 600_000 },
    );
    // The previous version's own smoke flows when it has them; else the new version's (the same HTTP).
    // `tsc -b`: their tsconfig may reference libraries (@rt/testing) that are built first.
    let smoke = join(__dirname, 'smoke-cli.js');
    if (existsSync(join(worktree, 'scripts/upgrade-check/smoke-cli.ts'))) {
      await runLogged(
        "tsc of the previous version's smoke flows",
        process.execPath,
        [tsc, '-b', 'scripts/upgrade-check/tsconfig.json'],
        { cwd: worktree, env: {}, logFile: logFile('previous-build'), timeoutMs: 300_000 },
      );
      smoke = join(worktree, 'scripts/upgrade-check/dist/upgrade-check/smoke-cli.js');
      log("the previous version's own smoke flows are used for it");
    } else {
      log(
        "the previous version has no smoke flows of its own (scripts/upgrade-check): the new version's run against it",
      );
    }
    log(`previous version built in ${seconds(since)}`);
    return smoke;
  };

  const stamp = `${Date.now().toString(36)}${process.pid.toString(36)}`;
  const databases: Record<Service, string> = {
    backend: `upgrade_check_${stamp}_backend`,
    search: `upgrade_check_${stamp}_search`,
  };
  const admin = {
    email: `admin-${stamp}@upgrade-check.example.com`,
    password: randomBytes(18).toString('hex'),
  };
  const dbUrl = (service: Service) => databaseUrl(options.serverUrl, databases[service]);
  const common = { APP_ENV: 'local', LOG_LEVEL: 'warn', DB_MIGRATE_ON_START: 'false' };
  const prepareDatabases = async (): Promise<void> => {
    const since = Date.now();
    step(`creating ${databases.backend} and ${databases.search}; the new version's migrations run on them`);
    await onServer(
      options.serverUrl,
      SERVICES.map((service) => `CREATE DATABASE ${quoted(databases[service])}`),
    );
    undo.push({
      what: 'drop the databases',
      run: () =>
        onServer(
          options.serverUrl,
          SERVICES.map((service) => `DROP DATABASE IF EXISTS ${quoted(databases[service])} WITH (FORCE)`),
        ),
    });
    for (const service of SERVICES) {
      await runLogged(
        `the new version's ${service} migrations`,
        process.execPath,
        [join(root, `apps/${service}/dist/database/migrate.js`)],
        {
          cwd: root,
          env: { ...common, DATABASE_URL: dbUrl(service) },
          logFile: logFile(`migrate-${service}`),
          timeoutMs: 300_000,
        },
      );
    }
    await runLogged(
      "the super-admin (the new version's create-admin)",
      process.execPath,
      [join(root, 'apps/backend/dist/cli/create-admin.js')],
      {
        cwd: root,
        env: {
          ...common,
          DATABASE_URL: dbUrl('backend'),
          ADMIN_EMAIL: admin.email,
          ADMIN_PASSWORD: admin.password,
        },
        logFile: logFile('create-admin'),
        timeoutMs: 120_000,
      },
    );
    log(`databases on the new schema in ${seconds(since)}`);
  };
  // Both settle before anything is undone, so that the cleanup sees all they set up.
  const [built, migrated] = await Promise.allSettled([preparePrevious(), prepareDatabases()]);
  if (built.status === 'rejected') throw built.reason;
  if (migrated.status === 'rejected') throw migrated.reason;
  const previousSmoke = built.value;

  // 3. Both versions' services on the same databases (the new search first: it builds the index).
  const catalogue = dir('catalogue.json');
  writeCatalogue(catalogue, initialCatalogue(40));
  const imgproxy = {
    IMGPROXY_KEY: randomBytes(32).toString('hex'),
    IMGPROXY_SALT: randomBytes(32).toString('hex'),
  };
  const envOf = (service: Service): Record<string, string> =>
    service === 'backend'
      ? {
          ...common,
          DATABASE_URL: dbUrl('backend'),
          SMTP_URL: '',
          MAIL_WORKER_ENABLED: 'true',
          MAIL_DIR: dir('mail'),
          MAIL_POLL_INTERVAL_MS: '200',
          IMAGE_STORAGE: 'local',
          IMAGE_DIR: dir('images'),
          ...imgproxy,
        }
      : {
          ...common,
          DATABASE_URL: dbUrl('search'),
          CATALOGUE_SOURCE: catalogue,
          EMBEDDING_PROVIDER: 'builtin',
          SEARCH_TEXT_INDEX_POLL_MS: '500',
        };
  const start = async (version: 'previous' | 'new', service: Service): Promise<ServiceChild> => {
    const base = version === 'new' ? root : worktree;
    const child = startLogged(`${version} ${service}`, join(base, `apps/${service}/dist/main.js`), {
      cwd: base,
      port: await freePort(),
      env: envOf(service),
      logFile: logFile(`${version}-${service}`),
    });
    running.push(child);
    undo.push({ what: `stop ${child.name}`, run: () => stopService(child) });
    return child;
  };
  const since = Date.now();
  step('starting the new search service (it indexes the catalogue), then the three others');
  const newSearch = await start('new', 'search');
  await waitReady(newSearch, 180_000, { aborted: options.aborted, logTail: true });
  const [newBackend, previousBackend, previousSearch] = await Promise.all([
    start('new', 'backend'),
    start('previous', 'backend'),
    start('previous', 'search'),
  ]);
  await Promise.all(
    [newBackend, previousBackend, previousSearch].map((service) =>
      waitReady(service, 180_000, { aborted: options.aborted, logTail: true }),
    ),
  );
  log(`four services ready in ${seconds(since)}`);

  // 4. The flows: each version's own against its services, on data the other version writes too.
  const phases: {
    what: string;
    script: string;
    cwd: string;
    backend: ServiceChild;
    search: ServiceChild;
    mode: string;
    label: string;
  }[] = [
    {
      what: "the previous version's flows (reads and writes, a reindex) on the previous services",
      script: previousSmoke,
      cwd: worktree,
      backend: previousBackend,
      search: previousSearch,
      mode: 'full',
      label: `prev-${stamp}`,
    },
    {
      what: "the new version's flows (reads and writes, a reindex) on the new services",
      script: join(__dirname, 'smoke-cli.js'),
      cwd: root,
      backend: newBackend,
      search: newSearch,
      mode: 'full',
      label: `new-${stamp}`,
    },
    {
      what: "the previous version's reads of what the new version wrote, on the previous services",
      script: previousSmoke,
      cwd: worktree,
      backend: previousBackend,
      search: previousSearch,
      mode: 'reads',
      label: `prev-reads-${stamp}`,
    },
  ];
  const services = [newSearch, newBackend, previousBackend, previousSearch];
  for (const [index, phase] of phases.entries()) {
    const phaseStart = Date.now();
    step(`${index + 1}/${phases.length}: ${phase.what}`);
    const result = await runSmokeCli(
      phase.script,
      {
        backend: phase.backend.base,
        search: phase.search.base,
        'admin-email': admin.email,
        'mail-dir': dir('mail'),
        catalogue,
        label: phase.label,
        mode: phase.mode,
      },
      {
        cwd: phase.cwd,
        password: admin.password,
        logFile: logFile(`smoke-${index + 1}`),
        timeoutMs: 600_000,
      },
    );
    const exited = services.filter((service) => service.exit);
    if (!result.ok || exited.length > 0) {
      const lines = [
        `FAILED: the previous release ${describeCommit(root, previous.commit)} and the new version do not serve one schema together.`,
        `  Migrations the previous release did not have: ${newMigrations}`,
        `  During: ${phase.what}`,
      ];
      if (result.failure) {
        lines.push(`  Failing request (${result.failure.flow}): ${result.failure.request}`);
        lines.push(`  Problem: ${result.failure.problem}`);
      } else if (result.error) {
        lines.push(`  Error: ${result.error}`);
      }
      for (const service of exited) {
        lines.push(`  ${service.name} exited (code ${service.exit!.code}, signal ${service.exit!.signal})`);
      }
      for (const service of [phase.backend, phase.search, ...exited]) {
        const logTail = (await tail(service.logFile, 8))
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => `    ${line.length > 600 ? `${line.slice(0, 600)}…` : line}`);
        if (logTail.length > 0) lines.push(`  Last lines of ${service.name}'s log:`, ...logTail);
      }
      lines.push(`  Logs: ${dir('logs')}${options.keep ? '' : ' (removed; --keep keeps them)'}`);
      log(lines.join('\n'));
      return 1;
    }
    log(`  ${result.requests} requests held (${seconds(phaseStart)})`);
  }
  log(
    `passed: the previous release ${describeCommit(root, previous.commit)} serves the new schema (${newMigrations}) beside the new version; ${seconds(startedAt)}`,
  );
  return 0;
}

export function isCheckFailure(error: unknown): error is Error {
  return error instanceof CheckFailure;
}
