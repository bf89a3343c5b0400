// `pnpm start`: both services from their built copies, side by side, in one terminal.
// Ctrl-C (or SIGTERM) stops both gracefully; if one exits on its own, the other is stopped too.
// PORT and DATA_DIR are per service, so here BACKEND_PORT / SEARCH_PORT choose the ports, and a
// DATA_DIR given gets one folder per service inside it.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const defaultPorts = { backend: '3000', search: '3001' };
const services = ['backend', 'search'].map((name) => {
  const env = { ...process.env, PORT: process.env[`${name.toUpperCase()}_PORT`] || defaultPorts[name] };
  if (process.env.DATA_DIR) env.DATA_DIR = join(process.env.DATA_DIR, name);
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: join(root, 'apps', name),
    stdio: 'inherit',
    env,
  });
  return {
    name,
    child,
    exited: new Promise((done) => child.once('exit', (code, signal) => done({ code, signal }))),
  };
});

let stopping = false;
const stopAll = (signal) => {
  if (stopping) return;
  stopping = true;
  for (const { child } of services) if (child.exitCode === null) child.kill(signal);
};
process.on('SIGINT', () => stopAll('SIGTERM'));
process.on('SIGTERM', () => stopAll('SIGTERM'));

const first = await Promise.race(
  services.map(({ name, exited }) => exited.then((result) => ({ name, ...result }))),
);
const unexpected = !stopping;
if (unexpected) {
  console.error(
    `[start] ${first.name} exited (code ${first.code}, signal ${first.signal}); stopping the other service`,
  );
  stopAll('SIGTERM');
}
const results = await Promise.all(services.map(({ exited }) => exited));
process.exit(!unexpected && results.every(({ code }) => code === 0) ? 0 : 1);
