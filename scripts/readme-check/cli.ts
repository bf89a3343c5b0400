// `pnpm check:readme`: runs the root README's quick start as written, from a clean copy of the
// repository (README.md beside this file).
import { freePort } from '@rt/testing';
import { execFileSync } from 'node:child_process';
import { chmod, cp, lstat, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import {
  concatenatedJson,
  configuredVariables,
  documentedVariables,
  EXAMPLE_SOURCE,
  exampleDrift,
  invitationOf,
  listeningLines,
  localUrls,
  markedBlock,
  missingPaths,
  namedPaths,
  quickStartPnpmVersion,
  section,
  undocumented,
  viewingHats,
  withPorts,
  type Ports,
} from './readme';
import {
  descendantsOf,
  isRunning,
  listening,
  log,
  run,
  Running,
  StepError,
  tail,
  waitUntil,
} from './processes';

/** The repository, from this file's compiled copy in scripts/readme-check/dist/readme-check. */
const root = resolve(__dirname, '..', '..', '..', '..');
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(0)} s`;
/** A first `pnpm start` in a clean copy compiles everything: minutes on a small machine. */
const START_TIMEOUT_MS = 15 * 60_000;
const STOP_TIMEOUT_MS = 60_000;

/** What the README says and what the check needs of it, read before anything runs. */
function readReadme(readme: string) {
  const commands = markedBlock(readme, 'commands');
  const signIn = markedBlock(readme, 'sign-in');
  const client = markedBlock(readme, 'typed-client');
  if (commands.lang !== 'sh' || signIn.lang !== 'sh' || client.lang !== 'ts') {
    throw new StepError('README.md: the commands and sign-in blocks must be `sh`, the typed client `ts`');
  }
  const urls = localUrls(section(readme, 'Quick start'));
  if (!urls.some((url) => url.includes(':3000')) || !urls.some((url) => url.includes(':3001'))) {
    throw new StepError(`README.md: the quick start lists no URL of one of the services: ${urls.join(', ')}`);
  }
  return {
    commands: commands.body.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#')),
    signIn: signIn.body,
    urls,
    listening: listeningLines(readme),
    hats: viewingHats(readme),
  };
}

/** The facts the README states about the repository itself. */
function checkFacts(readme: string): void {
  const missing = undocumented(documentedVariables(readme), configuredVariables(root));
  if (missing.length > 0) {
    throw new StepError(`README.md: the configuration table does not document ${missing.join(', ')}`);
  }
  const drift = exampleDrift(
    markedBlock(readme, 'typed-client').body,
    readFileSync(join(root, EXAMPLE_SOURCE), 'utf8'),
  );
  if (drift) throw new StepError(`README.md: the typed-client block is not ${EXAMPLE_SOURCE} (${drift})`);
  const absent = missingPaths(root, namedPaths(readme));
  if (absent.length > 0) throw new StepError(`README.md names files that do not exist: ${absent.join(', ')}`);
  const { packageManager } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    packageManager: string;
  };
  const wanted = quickStartPnpmVersion(readme);
  if (packageManager !== `pnpm@${wanted}`) {
    throw new StepError(
      `README.md installs pnpm@${wanted}; package.json's packageManager is ${packageManager}`,
    );
  }
}

/** The repository as a clone has it: its tracked files and the new ones not ignored, nothing built. */
async function cleanCopy(into: string): Promise<number> {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
  })
    .toString()
    .split('\0')
    .filter(Boolean);
  let copied = 0;
  for (const file of new Set(listed)) {
    const from = join(root, file);
    const stat = await lstat(from).catch(() => undefined);
    if (!stat || stat.isDirectory()) continue; // deleted in the work tree, or a submodule
    const to = join(into, file);
    await mkdir(dirname(to), { recursive: true });
    await cp(from, to, { verbatimSymlinks: true });
    if (!stat.isSymbolicLink()) await chmod(to, stat.mode & 0o777);
    copied++;
  }
  return copied;
}

/**
 * The environment of the run: this one without any variable the README documents (so the README's
 * defaults apply, and nothing points at this machine's own services) nor pnpm's `npm_*` of an
 * outer `pnpm check:readme`; then a temporary DATA_DIR and free ports.
 */
function runEnvironment(readme: string, dataDir: string, ports: Ports): NodeJS.ProcessEnv {
  const documented = documentedVariables(readme);
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    const isDocumented = undocumented(documented, [name]).length === 0;
    if (!isDocumented && !name.startsWith('npm_')) env[name] = value;
  }
  return {
    ...env,
    DATA_DIR: dataDir,
    BACKEND_PORT: String(ports.backend),
    SEARCH_PORT: String(ports.search),
  };
}

async function expectOk(url: string, init?: RequestInit): Promise<Response> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
  if (response.status !== 200) {
    throw new StepError(
      `${url} answered ${response.status}, not 200: ${(await response.text()).slice(0, 500)}`,
    );
  }
  return response;
}

interface Run {
  repo: string;
  env: NodeJS.ProcessEnv;
  ports: Ports;
  readme: ReturnType<typeof readReadme>;
}

/** `pnpm start` as written, everything the README promises while it runs, then a stop by SIGTERM. */
async function startAndStop(line: string, { repo, env, ports, readme }: Run): Promise<void> {
  let at = Date.now();
  const start = new Running(line, { cwd: repo, env });
  let tree: number[] = [];
  try {
    const expected = readme.listening.map((text) => withPorts(text, ports));
    await waitUntil(
      () => !start.alive || expected.every((text) => start.output.includes(text)),
      START_TIMEOUT_MS,
      () => `\`${line}\` did not print ${expected.join(' and ')}:\n${tail(start.output)}`,
    );
    if (!start.alive) throw new StepError(`\`${line}\` exited with ${start.child.exitCode}:`, start.output);
    log(`${line}: up (${expected.join(', ')}) after ${seconds(at)}`);
    tree = descendantsOf(start.child.pid!);

    const password = /with the generated password (\S+)/.exec(start.output)?.[1];
    if (!password)
      throw new StepError("the backend did not print the super-admin's generated password:", start.output);

    for (const url of readme.urls) {
      await expectOk(withPorts(url, ports));
      log(`200 ${withPorts(url, ports)}`);
    }

    at = Date.now();
    const signInScript = withPorts(readme.signIn.replace('<printed password>', password), ports);
    const signedIn = await run(signInScript, { cwd: repo, env });
    if (signedIn.code !== 0)
      throw new StepError(`the sign-in example exited with ${signedIn.code}:`, signedIn.output);
    const answers = concatenatedJson(signedIn.stdout);
    const printing = readme.signIn.split('\n').filter((text) => text.startsWith('curl ')).length;
    const refused = answers.filter(
      (answer) => typeof answer === 'object' && answer !== null && 'error' in answer,
    );
    if (answers.length !== printing || refused.length > 0) {
      throw new StepError(
        `the sign-in example printed ${answers.length} answers (expected ${printing}), refusals among them:`,
        signedIn.stdout,
      );
    }
    log(`sign-in example: ${answers.length} answers, none an error (${seconds(at)})`);

    // The README's word on a missing hat: 422, its message naming the hats it lists.
    const token = (
      (await (
        await expectOk(`http://localhost:${ports.backend}/api/login`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ email: 'admin@example.com', password, device_name: 'readme-check' }),
        })
      ).json()) as { token: string }
    ).token;
    const noHat = await fetch(`http://localhost:${ports.backend}/api/organizations`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const noHatBody = (await noHat.json()) as { message?: string };
    if (noHat.status !== 422 || !readme.hats.every((hat) => noHatBody.message?.includes(hat))) {
      throw new StepError(
        `a call without X-Viewing-As answered ${noHat.status} ${JSON.stringify(noHatBody)}; the README says 422 naming ${readme.hats.join(', ')}`,
      );
    }
    log(`no X-Viewing-As: 422 "${noHatBody.message}"`);

    at = Date.now();
    await exampleApp({ repo, env, ports, readme }, password);
    log(`the example app (${EXAMPLE_PACKAGE}): built and run against both services (${seconds(at)})`);

    at = Date.now();
    process.kill(start.child.pid!, 'SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const closed = await Promise.race([
      start.closed.then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), STOP_TIMEOUT_MS))),
    ]).finally(() => clearTimeout(timer));
    const left = tree.filter(isRunning);
    if (!closed || left.length > 0) {
      throw new StepError(
        `SIGTERM to \`${line}\` (pid ${start.child.pid}) left processes running: ${left.join(', ')}`,
        start.output,
      );
    }
    for (const port of [ports.backend, ports.search]) {
      if (await listening(port)) throw new StepError(`port ${port} still answers after the stop`);
    }
    const closedServices = start.output.match(/"msg":"Closed"/g)?.length ?? 0;
    if (closedServices !== 2)
      throw new StepError(`${closedServices} of 2 services logged a graceful close:`, start.output);
    log(
      `SIGTERM to \`${line}\` (pid ${start.child.pid}): both services closed, ${tree.length} processes gone, both ports free (${seconds(at)})`,
    );
  } finally {
    const leftovers = [...tree, ...descendantsOf(start.child.pid!)].filter(isRunning);
    for (const pid of leftovers) process.kill(pid, 'SIGKILL');
    if (start.alive) start.child.kill('SIGKILL');
  }
}

const EXAMPLE_PACKAGE = 'typed-client-example';
const DEMO_MANAGER = 'reseller.manager@example.com';

/**
 * The example app (examples/typed-client, the README's typed-client block) as a newcomer runs it,
 * `pnpm --filter typed-client-example start` (compiled with tsc, then run by node), against both
 * services: as the super-admin with the printed password (it lists tours), then as an ordinary
 * account, the demo reseller's manager, whose first password the check sets through the invitation
 * the demo seed mailed (tours answer 403).
 */
async function exampleApp({ repo, env, ports }: Run, password: string): Promise<void> {
  const backendUrl = `http://localhost:${ports.backend}/api`;
  const runAs = async (email: string, accountPassword: string, expected: (string | RegExp)[]) => {
    const ran = await run(`pnpm --filter ${EXAMPLE_PACKAGE} start`, {
      cwd: repo,
      env: {
        ...env,
        BACKEND_URL: backendUrl,
        SEARCH_URL: `http://localhost:${ports.search}`,
        EXAMPLE_EMAIL: email,
        EXAMPLE_PASSWORD: accountPassword,
      },
    });
    if (ran.code !== 0)
      throw new StepError(`the example app exited with ${ran.code} as ${email}:`, ran.output);
    const missing = expected.filter((line) =>
      typeof line === 'string' ? !ran.stdout.includes(line) : !line.test(ran.stdout),
    );
    if (missing.length > 0)
      throw new StepError(`the example app, as ${email}, did not print ${missing.join(', ')}:`, ran.output);
    log(`the example app as ${email} printed:\n${tail(ran.stdout, 20)}`);
  };
  const searched = /^\d+ travels for "lake" in CH; first: \S/m;
  await runAs('admin@example.com', password, [
    'signed in as admin@example.com (super-admin)',
    /^\d+ tours; the newest: /m,
    '404 not_found',
    searched,
  ]);

  const managerPassword = 'example manager passphrase 1';
  const invitation = await mailedInvitation(join(env.DATA_DIR!, 'mail'), DEMO_MANAGER);
  // The invited manager's first password, as the accept-invitation page sets it.
  const accepted = await fetch(`${backendUrl}/reset-password`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...invitation, password: managerPassword }),
    signal: AbortSignal.timeout(30_000),
  });
  if (accepted.status !== 204)
    throw new StepError(
      `POST /reset-password with the invitation answered ${accepted.status}:`,
      await accepted.text(),
    );
  await runAs(DEMO_MANAGER, managerPassword, [`signed in as ${DEMO_MANAGER}\n`, /^403 \w+$/m, searched]);
}

/** The invitation the demo seed mailed to `email` (a local run writes each email's text to `mailDir`). */
async function mailedInvitation(mailDir: string, email: string): Promise<{ email: string; token: string }> {
  let found: { email: string; token: string } | null = null;
  await waitUntil(
    async () => {
      const texts = (await readdir(mailDir).catch(() => [] as string[])).filter(
        (file) => file.includes('invitation') && file.endsWith('.txt'),
      );
      for (const file of texts) {
        const invitation = invitationOf(await readFile(join(mailDir, file), 'utf8'));
        if (invitation?.email === email) found = invitation;
      }
      return found !== null;
    },
    60_000,
    () => `no invitation to ${email} in ${mailDir}`,
  );
  return found!;
}

async function main(): Promise<void> {
  const started = Date.now();
  const keep = process.argv.includes('--keep');
  const text = await readFile(join(root, 'README.md'), 'utf8');
  const readme = readReadme(text);
  checkFacts(text);
  log('README.md: every variable of a local run documented, every file it names present');

  const work = await mkdtemp(join(tmpdir(), 'rt-readme-check-'));
  const repo = join(work, 'repo');
  try {
    let at = Date.now();
    log(`clean copy: ${await cleanCopy(repo)} files (tracked and new) in ${repo} (${seconds(at)})`);
    const ports = { backend: await freePort(), search: await freePort() };
    const env = runEnvironment(text, join(work, 'data'), ports);
    log(`DATA_DIR=${env.DATA_DIR} BACKEND_PORT=${ports.backend} SEARCH_PORT=${ports.search}`);
    const context: Run = { repo, env, ports, readme };

    for (const line of readme.commands) {
      for (const command of line.split(' && ')) {
        at = Date.now();
        const pnpmVersion = /^npm install -g pnpm@(\S+)$/.exec(command)?.[1];
        if (pnpmVersion) {
          // Installed already (CI installs the packageManager's version, which the README's is).
          const installed = (await run('pnpm --version', { cwd: repo, env })).stdout.trim();
          if (installed === pnpmVersion) log(`${command}: pnpm ${installed} is installed`);
          else {
            const outcome = await run(command, { cwd: repo, env });
            if (outcome.code !== 0)
              throw new StepError(`\`${command}\` exited with ${outcome.code}:`, outcome.output);
          }
        } else if (command === 'pnpm start') {
          await startAndStop(command, context);
        } else if (command === 'pnpm test') {
          log(`${command}: not run here (CI runs it on its own, before this check)`);
        } else if (command === 'pnpm install') {
          const outcome = await run(command, { cwd: repo, env });
          if (outcome.code !== 0)
            throw new StepError(`\`${command}\` exited with ${outcome.code}:`, outcome.output);
          if (!/Done in /.test(outcome.output))
            throw new StepError(`\`${command}\` did not end with "Done in …":`, outcome.output);
          if (/Ignored build scripts/.test(outcome.output)) {
            throw new StepError(
              `\`${command}\` ignored build scripts that pnpm-workspace.yaml does not list:`,
              outcome.output,
            );
          }
          for (const file of ['index.cjs', 'index.mjs', 'index.d.ts']) {
            if (!existsSync(join(repo, 'libs', 'client', 'dist', file))) {
              throw new StepError(
                `\`${command}\` did not build the typed client (libs/client/dist/${file}):`,
                outcome.output,
              );
            }
          }
          log(`${command}: done, the typed client built (${seconds(at)})`);
        } else {
          throw new StepError(
            `README.md's quick start runs \`${command}\`, which this check does not know: teach scripts/readme-check/cli.ts`,
          );
        }
      }
    }
    log(`the README's quick start holds (${seconds(started)})`);
  } finally {
    if (keep) log(`kept ${work}`);
    else await rm(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`[readme-check] FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
