// `pnpm check:upgrade -- --self-test`: the check must fail, naming the migration, when a migration
// breaks the previous release. A temporary worktree of HEAD gets a backend migration that renames
// `tours.color` (which every release so far reads) to `colour`, and the new version's entity follows
// it; the check then runs on that worktree, whose previous release is HEAD itself. Nothing is
// written to the repository: the worktree lives in the temporary folder and is removed at the end.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, MIGRATION_DIRS, migrationName } from './previous';

export const BREAKING_MIGRATION = 'UpgradeCheckSelfTestRenameTourColor';

/** Adds the breaking migration to a copy of the repository; answers its full name. */
export async function addBreakingMigration(copy: string): Promise<string> {
  const dir = join(copy, MIGRATION_DIRS.backend);
  const stamps = (await readdir(dir))
    .map(migrationName)
    .filter((name): name is string => name !== null)
    .map((name) => Number(name.split('-')[0]));
  const stamp = Math.max(...stamps) + 1000;
  const name = `${stamp}-${BREAKING_MIGRATION}`;
  const className = `${BREAKING_MIGRATION}${stamp}`;
  await writeFile(
    join(dir, `${name}.ts`),
    `import { MigrationInterface, QueryRunner } from 'typeorm';

/** The upgrade check's self-test: a rename in one step, which the previous release cannot survive. */
export class ${className} implements MigrationInterface {
  name = '${className}';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE tours RENAME COLUMN color TO colour');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE tours RENAME COLUMN colour TO color');
  }
}
`,
  );
  const index = join(dir, 'index.ts');
  const list = await readFile(index, 'utf8');
  const listed = list.replace(
    /(export const backendMigrations[^=]*= \[\n(?:.*\n)*?)(\];)/,
    `$1  ${className},\n$2`,
  );
  if (listed === list)
    throw new Error(`${MIGRATION_DIRS.backend}/index.ts: the list of migrations was not found`);
  await writeFile(index, `import { ${className} } from './${name}';\n${listed}`);
  // The new version follows the rename (when the entity still reads as it did), so that only the
  // previous release is left reading the old name.
  const entity = join(copy, 'apps/backend/src/tours/tour.entity.ts');
  const source = await readFile(entity, 'utf8');
  await writeFile(
    entity,
    source
      .replace(
        "@Column({ type: 'varchar', length: 7 })\n  color!",
        "@Column({ name: 'colour', type: 'varchar', length: 7 })\n  color!",
      )
      .replace(`"color" ~ '`, `"colour" ~ '`),
  );
  return name;
}

function run(
  command: string,
  args: string[],
  cwd: string,
  options: { echo?: boolean; timeoutMs: number },
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, CI: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const take = (chunk: Buffer) => {
      output += chunk.toString();
      if (options.echo) process.stdout.write(chunk);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    const timer = setTimeout(() => child.kill('SIGTERM'), options.timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ code: null, output: `${output}${error.message}\n` });
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** Answers 0 when the check failed as it must, 1 otherwise. */
export async function runSelfTest(options: {
  root: string;
  cli: string;
  log: (line: string) => void;
}): Promise<number> {
  const { root, log } = options;
  const startedAt = Date.now();
  const dir = await mkdtemp(join(tmpdir(), 'rt-upgrade-self-test-'));
  const copy = join(dir, 'current');
  try {
    git(root, ['worktree', 'add', '--detach', copy, 'HEAD']);
    const name = await addBreakingMigration(copy);
    log(`added ${MIGRATION_DIRS.backend}/${name}.ts to a worktree of HEAD in ${copy}`);
    for (const [what, command, args] of [
      ['install', 'pnpm', ['install', '--frozen-lockfile', '--offline']],
      [
        'build',
        process.execPath,
        [
          join(copy, 'node_modules/typescript/bin/tsc'),
          '-b',
          'apps/backend/tsconfig.build.json',
          'apps/search/tsconfig.build.json',
        ],
      ],
    ] as const) {
      const outcome = await run(command, [...args], copy, { timeoutMs: 600_000 });
      if (outcome.code !== 0) {
        log(`${what} of the worktree failed:\n${outcome.output.slice(-3000)}`);
        return 1;
      }
    }
    log('running the check on it (its previous release is HEAD)');
    const check = await run(process.execPath, [options.cli, '--root', copy], root, {
      echo: true,
      timeoutMs: 1_200_000,
    });
    const failed = check.output.slice(check.output.indexOf('FAILED'));
    const problems: string[] = [];
    if (check.code !== 1) problems.push(`the check exited with ${check.code}, expected 1`);
    if (!check.output.includes('FAILED')) problems.push('it printed no FAILED report');
    if (
      !/Migrations the previous release did not have: backend [^\n]*UpgradeCheckSelfTestRenameTourColor/.test(
        failed,
      )
    ) {
      problems.push(`the report does not name ${name}`);
    }
    if (!/Failing request \([^)]*\): (GET|POST|PUT|PATCH|DELETE) \/\S+/.test(failed)) {
      problems.push('the report names no failing request');
    }
    if (!/During: the previous version's flows/.test(failed)) {
      problems.push("the failure is not the previous version's");
    }
    if (problems.length > 0) {
      log(`FAILED (${((Date.now() - startedAt) / 1000).toFixed(0)} s): ${problems.join('; ')}`);
      return 1;
    }
    log(
      `passed in ${((Date.now() - startedAt) / 1000).toFixed(0)} s: the check failed naming ${name} and the request`,
    );
    return 0;
  } finally {
    try {
      git(root, ['worktree', 'remove', '--force', copy]);
    } catch {
      // removed below
    }
    await rm(dir, { recursive: true, force: true });
    git(root, ['worktree', 'prune']);
  }
}
