import { temporaryFolder } from '@rt/testing';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { addMarkedOffer, initialCatalogue, markerOf, readCatalogue, writeCatalogue } from './catalogue';
import {
  choosePrevious,
  describeMigrations,
  migrationChanges,
  migrationName,
  type History,
  type MigrationSet,
} from './previous';
import { addBreakingMigration, BREAKING_MIGRATION } from './self-test';

const set = (backend: string[], search: string[]): MigrationSet => ({ backend, search });

describe('the previous release', () => {
  const current = set(['1-A', '2-B'], ['1-S', '2-T']);
  const history = (overrides: Partial<History>, sets: Record<string, MigrationSet>): History => ({
    head: 'c3',
    releaseTags: [],
    firstParents: () => Object.keys(sets),
    migrationsAt: (commit) => sets[commit],
    ...overrides,
  });

  it('is the newest first-parent commit whose migrations differ from the working tree', () => {
    const sets = { c3: current, c2: current, c1: set(['1-A', '2-B'], ['1-S']), c0: set(['1-A'], ['1-S']) };
    expect(choosePrevious(history({}, sets), current)).toEqual({
      commit: 'c1',
      how: 'the newest first-parent commit whose migrations differ from the working tree',
    });
  });

  it('is HEAD when the working tree adds a migration', () => {
    const sets = { c3: set(['1-A'], ['1-S', '2-T']), c2: set(['1-A'], ['1-S']) };
    expect(choosePrevious(history({}, sets), current)?.commit).toBe('c3');
  });

  it('is the newest release tag that is not on HEAD, when there are tags', () => {
    const sets = { c3: current, c2: set(['1-A'], []) };
    const tags = [
      { name: 'v1.3.0', commit: 'c3' },
      { name: 'v1.2.0', commit: 'c9' },
      { name: 'v1.1.0', commit: 'c8' },
    ];
    expect(choosePrevious(history({ releaseTags: tags }, sets), current)).toEqual({
      commit: 'c9',
      how: 'release tag v1.2.0',
    });
  });

  it('is none when every commit has the same migrations', () => {
    expect(choosePrevious(history({}, { c3: current, c2: current }), current)).toBeUndefined();
  });

  it('compares names: index.ts and specs are not migrations', () => {
    expect(migrationName('1796000000000-AddPostingBlocks.ts')).toBe('1796000000000-AddPostingBlocks');
    expect(migrationName('index.ts')).toBeNull();
    expect(migrationName('1796000000000-AddPostingBlocks.spec.ts')).toBeNull();
  });

  it('names what the new version adds, per service', () => {
    const { added, removed } = migrationChanges(current, set(['1-A'], ['1-S', '2-T']));
    expect(describeMigrations(added)).toBe('backend 2-B');
    expect(describeMigrations(removed)).toBe('none');
  });
});

describe('the catalogue of the check', () => {
  const dir = temporaryFolder('rt-upgrade-check-spec-', 'each');

  it('gains offers found by a word of their own', () => {
    const file = join(dir.path, 'catalogue.json');
    writeCatalogue(file, initialCatalogue(5));
    const added = addMarkedOffer(file, 'spec');
    const offers = readCatalogue(file);
    expect(offers).toHaveLength(6);
    expect(offers.filter((offer) => markerOf(offer) !== null)).toEqual([added]);
    expect(markerOf(added)).toMatch(/^quor[a-z]{8}$/);
    expect(added.id).toMatch(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/);
  });
});

describe('the self-test', () => {
  const dir = temporaryFolder('rt-upgrade-check-spec-', 'each');

  it("adds its breaking migration after the newest one and lists it last, in a copy's files only", async () => {
    const migrations = join(dir.path, 'apps/backend/src/database/migrations');
    await mkdir(migrations, { recursive: true });
    await mkdir(join(dir.path, 'apps/backend/src/tours'), { recursive: true });
    await writeFile(join(migrations, '1000-First.ts'), '');
    await writeFile(join(migrations, '2000-Second.ts'), '');
    await writeFile(
      join(migrations, 'index.ts'),
      "import { First1000 } from './1000-First';\n\nexport const backendMigrations: Function[] = [\n  First1000,\n  Second2000,\n];\n",
    );
    await writeFile(
      join(dir.path, 'apps/backend/src/tours/tour.entity.ts'),
      "@Column({ type: 'varchar', length: 7 })\n  color!",
    );
    const name = await addBreakingMigration(dir.path);
    expect(name).toBe(`3000-${BREAKING_MIGRATION}`);
    const index = await readFile(join(migrations, 'index.ts'), 'utf8');
    expect(index).toContain(`import { ${BREAKING_MIGRATION}3000 } from './3000-${BREAKING_MIGRATION}';`);
    expect(index).toContain(`  Second2000,\n  ${BREAKING_MIGRATION}3000,\n];`);
    expect(await readFile(join(migrations, `${name}.ts`), 'utf8')).toContain('RENAME COLUMN color TO colour');
    expect(await readFile(join(dir.path, 'apps/backend/src/tours/tour.entity.ts'), 'utf8')).toContain(
      "name: 'colour'",
    );
  });
});
