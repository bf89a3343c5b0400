import { spawn } from 'node:child_process';

/** What a command printed (stdout and stderr interleaved) and how it ended. */
export interface Outcome {
  code: number | null;
  output: string;
}

/** The last lines of a command's output: what a failure shows. */
export function tail(output: string, lines = 120): string {
  const all = output.trimEnd().split('\n');
  return (all.length > lines ? [`… (${all.length - lines} lines above)`, ...all.slice(-lines)] : all).join(
    '\n',
  );
}

export class CommandError extends Error {
  constructor(
    readonly what: string,
    readonly output: string,
  ) {
    super(`${what}\n${tail(output)}`);
  }
}

/** Runs a command to its end, collecting its output; `input` is written to its stdin. */
export function exec(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; input?: string; cwd?: string } = {},
): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error) => resolve({ code: null, output: `${output}${error.message}\n` }));
    child.on('close', (code) => resolve({ code, output }));
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(options.input);
  });
}

/** Runs a command and returns its output, or throws with that output when it fails. */
export async function must(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; input?: string; cwd?: string } = {},
): Promise<string> {
  const outcome = await exec(command, args, options);
  if (outcome.code !== 0) {
    throw new CommandError(`${command} ${args.join(' ')} exited with ${outcome.code}:`, outcome.output);
  }
  return outcome.output;
}

/** The command as root: directly when this process is root, through `sudo -n` otherwise. */
export function asRoot(command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? [command, args] : ['sudo', ['-n', command, ...args]];
}

export function log(message: string): void {
  console.log(`[check:images] ${message}`);
}
