import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import ignore from '@balena/dockerignore';
import { DockerfileParser, Env, type Instruction } from 'dockerfile-ast';
import { validate } from 'dockerfile-utils';
import { parse } from 'yaml';
import { imagePinProblem } from './images';

/** docker/*.Dockerfile, relative to the root. */
export function dockerfiles(root: string): string[] {
  const folder = join(root, 'docker');
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => name.endsWith('.Dockerfile'))
    .sort()
    .map((name) => posix.join('docker', name));
}

/** Every file under a folder of the context, as paths relative to the root. */
function filesUnder(root: string, relative: string): string[] {
  const absolute = join(root, relative);
  if (!statSync(absolute).isDirectory()) return [relative];
  return readdirSync(absolute).flatMap((name) =>
    name === 'node_modules' || name === '.git' ? [] : filesUnder(root, posix.join(relative, name)),
  );
}

/** The sources of a COPY or ADD from the context (not `--from` another stage), with its flags removed. */
function contextSources(instruction: Instruction): string[] {
  const flags = (instruction as unknown as { getFlags(): { getName(): string }[] }).getFlags();
  if (flags.some((flag) => flag.getName() === 'from')) return [];
  const args = instruction.getArguments().map((arg) => arg.getValue());
  const json = instruction.getArgumentsContent()?.trim().startsWith('[');
  const values = json ? (JSON.parse(instruction.getArgumentsContent() ?? '[]') as string[]) : args;
  return values.slice(0, -1);
}

/**
 * Checks one Dockerfile: lint, base images, user, health check, build values, the address the
 * process listens on, and its build context.
 */
export function dockerfileProblems(root: string, file: string, packageManager: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const problems: string[] = [];
  for (const diagnostic of validate(text)) {
    problems.push(`${file}:${diagnostic.range.start.line + 1}: ${diagnostic.message}`);
  }
  const dockerfile = DockerfileParser.parse(text);
  const instructions = dockerfile.getInstructions();
  const stages = new Set<string>();
  let lastFrom = -1;
  instructions.forEach((instruction, index) => {
    if (instruction.getKeyword() !== 'FROM') return;
    lastFrom = index;
    const [image, as, stage] = instruction.getArguments().map((arg) => arg.getValue());
    if (!stages.has(image)) {
      const pin = imagePinProblem(image);
      if (pin) problems.push(`${file}: FROM ${pin}`);
      else if (image.startsWith('node:') && !/^node:24\.\d+\.\d+-/.test(image)) {
        problems.push(`${file}: FROM ${image} is not a pinned Node 24 (the current LTS) image`);
      }
    }
    if (as?.toUpperCase() === 'AS' && stage) stages.add(stage);
  });
  if (lastFrom < 0) return [...problems, `${file}: has no FROM`];
  const final = instructions.slice(lastFrom);
  const keywordArgs = (keyword: string) =>
    final.filter((i) => i.getKeyword() === keyword).map((i) => i.getArgumentsContent() ?? '');
  const user = keywordArgs('USER').pop();
  if (!user || /^(root|0)(:|$)/.test(user.trim())) {
    problems.push(`${file}: the final stage must run as a non-root USER`);
  }
  const healthcheck = keywordArgs('HEALTHCHECK').pop();
  if (!healthcheck || !healthcheck.includes('/health/live')) {
    problems.push(`${file}: the final stage needs a HEALTHCHECK on /health/live`);
  }
  for (const name of ['VERSION_TAG', 'BUILD_DATE']) {
    const hasArg = keywordArgs('ARG').some((arg) => arg.split('=')[0].trim() === name);
    const passed = keywordArgs('ENV').some((env) => new RegExp(`\\b${name}=\\$\\{?${name}\\}?`).test(env));
    if (!hasArg || !passed)
      problems.push(`${file}: ${name} must be a build ARG passed to the process with ENV`);
  }
  // A service listens on loopback unless HOST says otherwise (README.md, "Configuration"): in an
  // image that would leave it unreachable through a published port or the pod's address.
  const host = final
    .filter((i): i is Env => i instanceof Env)
    .flatMap((env) => env.getProperties())
    .filter((property) => property.getName() === 'HOST')
    .pop()
    ?.getValue();
  if (host !== '0.0.0.0') {
    problems.push(
      `${file}: the final stage must set ENV HOST=0.0.0.0, to listen on every interface (${host === undefined ? 'no HOST: loopback only' : `HOST=${host}`})`,
    );
  }
  if (keywordArgs('CMD').length === 0 && keywordArgs('ENTRYPOINT').length === 0) {
    problems.push(`${file}: the final stage has no CMD`);
  }
  const pnpm = instructions
    .filter((i) => i.getKeyword() === 'ARG')
    .map((i) => /^PNPM_VERSION=(.+)$/.exec(i.getArgumentsContent()?.trim() ?? '')?.[1])
    .find(Boolean);
  if (pnpm && `pnpm@${pnpm}` !== packageManager) {
    problems.push(
      `${file}: PNPM_VERSION ${pnpm} differs from package.json's packageManager ${packageManager}`,
    );
  }
  problems.push(...contextProblems(root, file, instructions));
  problems.push(...manifestProblems(root, file, instructions));
  return problems;
}

/** The folders whose subfolders are the workspace's packages (pnpm-workspace.yaml's `folder/*`). */
function workspaceFolders(root: string): string[] {
  const { packages } = parse(readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8')) as {
    packages: string[];
  };
  return packages.filter((glob) => glob.endsWith('/*')).map((glob) => glob.slice(0, -2));
}

/** The frozen lockfile describes every workspace package: each manifest must be in the image. */
function manifestProblems(root: string, file: string, instructions: Instruction[]): string[] {
  const copied = instructions
    .filter((i) => ['COPY', 'ADD'].includes(i.getKeyword()))
    .flatMap(contextSources)
    .map((source) =>
      posix
        .normalize(source)
        .replace(/^\.?\/+/, '')
        .replace(/\/$/, ''),
    );
  const manifests = workspaceFolders(root).flatMap((folder) =>
    existsSync(join(root, folder))
      ? readdirSync(join(root, folder))
          .map((name) => posix.join(folder, name, 'package.json'))
          .filter((path) => existsSync(join(root, path)))
      : [],
  );
  return manifests
    .filter((manifest) => !copied.some((source) => manifest === source || manifest.startsWith(`${source}/`)))
    .map(
      (manifest) =>
        `${file}: does not copy ${manifest} (pnpm install --frozen-lockfile needs every workspace manifest)`,
    );
}

/** Each COPY/ADD source exists in the context (the root) and .dockerignore leaves it in. */
function contextProblems(root: string, file: string, instructions: Instruction[]): string[] {
  const problems: string[] = [];
  const ignoreFile = join(root, '.dockerignore');
  const ignored = ignore().add(existsSync(ignoreFile) ? readFileSync(ignoreFile, 'utf8') : '');
  for (const instruction of instructions) {
    if (!['COPY', 'ADD'].includes(instruction.getKeyword())) continue;
    const line = instruction.getRange().start.line + 1;
    for (const source of contextSources(instruction)) {
      const relative =
        posix
          .normalize(source)
          .replace(/^\.?\/+/, '')
          .replace(/\/$/, '') || '.';
      if (/[*?[]/.test(relative) || relative.includes('$')) {
        problems.push(`${file}:${line}: COPY source ${source} is a pattern or a variable; name the path`);
        continue;
      }
      if (relative.startsWith('..')) {
        problems.push(`${file}:${line}: COPY source ${source} is outside the build context`);
        continue;
      }
      if (!existsSync(join(root, relative))) {
        problems.push(`${file}:${line}: COPY source ${source} does not exist in the build context`);
        continue;
      }
      if (relative !== '.' && ignored.ignores(relative)) {
        problems.push(`${file}:${line}: COPY source ${source} is excluded by .dockerignore`);
        continue;
      }
      const kept = filesUnder(root, relative).filter((path) => !ignored.ignores(path));
      if (kept.length === 0)
        problems.push(`${file}:${line}: .dockerignore excludes everything under ${source}`);
    }
  }
  return problems;
}

/** The example client apps (examples/) are never deployed: the build context holds their manifests only. */
function exampleProblems(root: string): string[] {
  const ignoreFile = join(root, '.dockerignore');
  if (!existsSync(join(root, 'examples')) || !existsSync(ignoreFile)) return [];
  const ignored = ignore().add(readFileSync(ignoreFile, 'utf8'));
  return filesUnder(root, 'examples')
    .filter((path) => !/^examples\/[^/]+\/package\.json$/.test(path) && !ignored.ignores(path))
    .map((path) => `.dockerignore lets ${path} into the build context (the examples are never deployed)`);
}

export function checkDockerfiles(root: string): string[] {
  const files = dockerfiles(root);
  const problems: string[] = [];
  for (const service of ['backend', 'search']) {
    if (!files.includes(`docker/${service}.Dockerfile`))
      problems.push(`docker/${service}.Dockerfile is missing`);
  }
  if (!existsSync(join(root, '.dockerignore')))
    problems.push('.dockerignore is missing at the root (the build context)');
  const { packageManager } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    packageManager: string;
  };
  for (const file of files) problems.push(...dockerfileProblems(root, file, packageManager));
  problems.push(...exampleProblems(root));
  return problems;
}
