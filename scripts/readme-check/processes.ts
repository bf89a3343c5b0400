// Processes the README check runs: commands to their end, `pnpm start` in the background, and the
// Linux process table to make sure nothing is left once it has stopped.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';

export const log = (message: string): void => console.log(`[readme-check] ${message}`);

/** The last lines of an output: what a failure shows. */
export function tail(output: string, lines = 80): string {
  const all = output.trimEnd().split('\n');
  return (all.length > lines ? [`… (${all.length - lines} lines above)`, ...all.slice(-lines)] : all).join(
    '\n',
  );
}

export class StepError extends Error {
  constructor(what: string, output?: string) {
    super(output === undefined ? what : `${what}\n${tail(output)}`);
  }
}

export interface Outcome {
  code: number | null;
  stdout: string;
  /** stdout and stderr, interleaved as they came. */
  output: string;
}

/**
 * A command line of the README, run as a shell would: split into words when it is a plain command
 * (`pnpm start`), so that the process started is the command itself; through `bash -c` otherwise.
 */
export function commandOf(line: string): { command: string; args: string[] } {
  if (/^[\w@./:=,-]+( [\w@./:=,-]+)*$/.test(line)) {
    const [command, ...args] = line.split(' ');
    return { command, args };
  }
  return { command: 'bash', args: ['-e', '-o', 'pipefail', '-c', line] };
}

/** A process whose output is collected as it comes; `closed` settles once nothing holds its output open. */
export class Running {
  readonly child: ChildProcess;
  readonly closed: Promise<number | null>;
  stdout = '';
  output = '';

  constructor(line: string, options: { cwd: string; env: NodeJS.ProcessEnv }) {
    const { command, args } = commandOf(line);
    this.child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout!.on('data', (chunk: Buffer) => {
      this.stdout += chunk.toString();
      this.output += chunk.toString();
    });
    this.child.stderr!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.closed = new Promise((resolve) => {
      this.child.once('error', (error) => {
        this.output += `${error.message}\n`;
        resolve(null);
      });
      this.child.once('close', (code) => resolve(code));
    });
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }
}

/** Runs a command line to its end. */
export async function run(line: string, options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Outcome> {
  const running = new Running(line, options);
  const code = await running.closed;
  return { code, stdout: running.stdout, output: running.output };
}

/** Waits for `condition` (checked every 250 ms), or fails after `timeoutMs` with `what`. */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new StepError(what());
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Whether something accepts connections on the loopback port. */
export const listening = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** `state` and `ppid` of a process from /proc (after the last `)`: the command name may hold any). */
function statOf(pid: number | string): { state: string; ppid: number } | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').pop()!.split(' ');
    return { state: fields[0], ppid: Number(fields[1]) };
  } catch {
    return undefined;
  }
}

/** Every process under `pid`. */
export function descendantsOf(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(entry);
    if (stat) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  const visit = (parent: number): void => {
    for (const child of children.get(parent) ?? []) {
      found.push(child);
      visit(child);
    }
  };
  visit(pid);
  return found;
}

/** Whether `pid` runs (an exited process not yet reaped, a zombie, does not). */
export function isRunning(pid: number): boolean {
  const stat = statOf(pid);
  return stat !== undefined && stat.state !== 'Z';
}
