import { freePort, temporaryFolder } from '@rt/testing';
import type { ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { startLogged, stopService, tail, waitReady, type ServiceChild } from './service-process';

describe('the service process kit of the scripts', () => {
  const dir = temporaryFolder('rt-service-process-');

  const service = (port: number, logFile: string, exit?: ServiceChild['exit']): ServiceChild => ({
    name: 'search',
    base: `http://127.0.0.1:${port}`,
    port,
    child: {} as ChildProcess,
    logFile,
    exit,
  });

  it('reads the last lines of a log, or nothing from a missing one', async () => {
    const log = join(dir.path, 'tail.log');
    await writeFile(log, 'one\ntwo\nthree\n');
    await expect(tail(log, 2)).resolves.toBe('two\nthree');
    await expect(tail(join(dir.path, 'missing.log'))).resolves.toBe('');
  });

  it('waits for /health/ready to answer 200', async () => {
    let calls = 0;
    const server: Server = createServer((request, response) => {
      calls++;
      response.statusCode = request.url === '/health/ready' && calls > 1 ? 200 : 503;
      response.end();
    });
    const port = await freePort();
    await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
    try {
      await expect(waitReady(service(port, join(dir.path, 'ready.log')), 10_000)).resolves.toBeUndefined();
      expect(calls).toBe(2);
    } finally {
      await new Promise((done) => server.close(done));
    }
  });

  it('says when the service exited during start-up, with its log when asked', async () => {
    const log = join(dir.path, 'exited.log');
    await writeFile(log, 'listen EADDRINUSE\n');
    const exited = service(await freePort(), log, { code: 1, signal: null });
    await expect(waitReady(exited, 5_000)).rejects.toThrow(
      /^search exited during start-up \(code 1, signal null\)$/,
    );
    await expect(waitReady(exited, 5_000, { logTail: true })).rejects.toThrow(
      'search exited during start-up (code 1, signal null):\nlisten EADDRINUSE',
    );
  });

  it('gives up after the time allowed, or at once when aborted', async () => {
    const silent = service(await freePort(), join(dir.path, 'silent.log'));
    await expect(waitReady(silent, 300)).rejects.toThrow('search was not ready within 0.3 s');
    await expect(waitReady(silent, 10_000, { aborted: () => true })).rejects.toThrow('interrupted');
  });

  it('starts a script with PORT set, its output in the log, and stops it with SIGTERM', async () => {
    const script = join(dir.path, 'server.js');
    await writeFile(
      script,
      "console.log('port ' + process.env.PORT + ' ' + process.env.EXTRA); setInterval(() => {}, 1000);",
    );
    const log = join(dir.path, 'server.log');
    const started = startLogged('fixture', script, {
      cwd: dir.path,
      port: 4321,
      env: { EXTRA: 'x' },
      logFile: log,
    });
    expect(started.base).toBe('http://127.0.0.1:4321');
    for (let i = 0; i < 100 && !(await tail(log)); i++) await new Promise((done) => setTimeout(done, 50));
    await expect(tail(log)).resolves.toBe('port 4321 x');
    await stopService(started, 5_000);
    expect(started.exit).toEqual({ code: null, signal: 'SIGTERM' });
  });
});
