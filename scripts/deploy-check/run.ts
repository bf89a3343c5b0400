import { spawnSync } from 'node:child_process';

/** A command's output, or an error naming the command when it cannot run or fails. */
export function run(
  command: string,
  args: string[],
  cwd: string,
): { ok: boolean; stdout: string; error?: string } {
  const result = spawnSync(command, args, {
    cwd,
    env: process.env,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) {
    const missing = (result.error as NodeJS.ErrnoException).code === 'ENOENT';
    return {
      ok: false,
      stdout: '',
      error: missing ? `${command} is not installed (not found on PATH)` : result.error.message,
    };
  }
  if (result.status !== 0) {
    return {
      ok: false,
      stdout: result.stdout,
      error: `${command} ${args.join(' ')} failed: ${result.stderr.trim()}`,
    };
  }
  return { ok: true, stdout: result.stdout };
}
