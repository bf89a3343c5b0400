// `pnpm start`: builds both services (`pnpm build`), then runs their built copies
// side by side in one terminal. Ctrl-C, or SIGTERM (or SIGHUP) to this process or to the `pnpm
// start` that runs it, stops both gracefully and exits 0; if one exits on its own, the other is
// stopped too (exit 1).
//
// `pnpm start` runs `exec node scripts/start-all.mjs`: pnpm's shell is replaced by this script, so
// a Ctrl-C reaches no shell that would die of it and make pnpm print "ELIFECYCLE Command failed."
// after a clean stop, and pnpm's SIGTERM reaches this script. Should pnpm exit without passing a
// signal on, this script watches its parent process and stops everything when that one is gone.
//
// PORT and DATA_DIR are per service, so here BACKEND_PORT / SEARCH_PORT choose the ports (3000 and
// 3001), and a DATA_DIR given gets one folder per service inside it (the backend keeps its mail,
// images and image signing keys beside its own: README.md, "Configuration"). HOST, the address both
// listen on (127.0.0.1 unless set), is passed on to both as it is.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const log = (message) => console.error(`[start] ${message}`);

const parentPid = process.ppid;
let stopRequested = false;
let onStop = () => {};
const requestStop = (why) => {
  if (stopRequested) return;
  stopRequested = true;
  log(`${why}: stopping`);
  onStop();
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => requestStop(signal));
setInterval(() => {
  if (process.ppid !== parentPid) requestStop(`the parent process (pid ${parentPid}) is gone`);
}, 250).unref();

/** A child process's exit, as `{ code, signal }`. */
const exitOf = (child) =>
  new Promise((done) => {
    child.once('exit', (code, signal) => done({ code, signal }));
    child.once('error', (error) => done({ code: null, signal: null, error }));
  });

// The build: `pnpm build` (incremental: quick when nothing changed), in a process group of its own
// so that a stop ends all of it (pnpm leaves its own children running when it is stopped).
const pnpmCli = /pnpm/.test(process.env.npm_execpath ?? '') ? process.env.npm_execpath : undefined;
const build = spawn(
  pnpmCli ? process.execPath : 'pnpm',
  [...(pnpmCli ? [pnpmCli] : []), '--silent', 'build'],
  {
    cwd: root,
    stdio: 'inherit',
    detached: true,
  },
);
onStop = () => {
  try {
    process.kill(-build.pid, 'SIGTERM');
  } catch {
    // already exited
  }
};
const built = await exitOf(build);
if (stopRequested) process.exit(0);
if (built.code !== 0) {
  log(`the build failed (pnpm build: ${built.error ?? `code ${built.code}, signal ${built.signal}`})`);
  process.exit(1);
}

const ports = { backend: process.env.BACKEND_PORT || '3000', search: process.env.SEARCH_PORT || '3001' };
const services = ['backend', 'search'].map((name) => {
  const env = { ...process.env, PORT: ports[name] };
  if (process.env.DATA_DIR) env.DATA_DIR = join(process.env.DATA_DIR, name);
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: join(root, 'apps', name),
    stdio: 'inherit',
    env,
  });
  return { name, child, exited: exitOf(child) };
});

const stopAll = () => {
  for (const { child } of services)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
};
onStop = stopAll;
if (stopRequested) stopAll();

const first = await Promise.race(
  services.map(({ name, exited }) => exited.then((result) => ({ name, ...result }))),
);
const unexpected = !stopRequested;
if (unexpected) {
  log(`${first.name} exited (code ${first.code}, signal ${first.signal}); stopping the other service`);
  stopRequested = true;
  stopAll();
}
const results = await Promise.all(services.map(({ exited }) => exited));
const clean = !unexpected && results.every(({ code }) => code === 0);
log(clean ? 'both services stopped' : 'stopped with an error');
process.exit(clean ? 0 : 1);
