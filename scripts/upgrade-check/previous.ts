// The previous release: which commit the upgrade check builds and runs on the new schema, and which
// migrations it did not have.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export type Service = 'backend' | 'search';
export const SERVICES: readonly Service[] = ['backend', 'search'];

/** Each service's migration folder (relative to the repository root). */
export const MIGRATION_DIRS: Record<Service, string> = {
  backend: 'apps/backend/src/database/migrations',
  search: 'apps/search/src/database/migrations',
};

/** The migrations of both services, by name (`1796000000000-AddPostingBlocks`), sorted. */
export type MigrationSet = Record<Service, string[]>;

/** `1796000000000-AddPostingBlocks.ts` → `1796000000000-AddPostingBlocks`; anything else (index.ts, specs) → null. */
export function migrationName(file: string): string | null {
  const match = /^(\d+-[A-Za-z0-9_]+)\.ts$/.exec(file);
  return match ? match[1] : null;
}

const namesOf = (files: string[]): string[] =>
  files
    .map(migrationName)
    .filter((name): name is string => name !== null)
    .sort();

/** The migrations of the working tree (the version being checked, committed or not). */
export function workingMigrations(root: string): MigrationSet {
  const set = {} as MigrationSet;
  for (const service of SERVICES) set[service] = namesOf(readdirSync(join(root, MIGRATION_DIRS[service])));
  return set;
}

export function git(root: string, args: string[]): string {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

const lines = (text: string): string[] => text.split('\n').filter((line) => line !== '');

/** The migrations of a commit. */
export function commitMigrations(root: string, commit: string): MigrationSet {
  const set = {} as MigrationSet;
  for (const service of SERVICES) {
    const files = lines(git(root, ['ls-tree', '--name-only', `${commit}:${MIGRATION_DIRS[service]}`]));
    set[service] = namesOf(files);
  }
  return set;
}

export const sameMigrations = (a: MigrationSet, b: MigrationSet): boolean =>
  SERVICES.every((service) => a[service].join('\n') === b[service].join('\n'));

/** What the current version has that the previous one did not, and what it no longer has. */
export function migrationChanges(
  current: MigrationSet,
  previous: MigrationSet,
): { added: MigrationSet; removed: MigrationSet } {
  const added = {} as MigrationSet;
  const removed = {} as MigrationSet;
  for (const service of SERVICES) {
    added[service] = current[service].filter((name) => !previous[service].includes(name));
    removed[service] = previous[service].filter((name) => !current[service].includes(name));
  }
  return { added, removed };
}

/** `backend 1795…-A, search 1796…-B` (services without any left out), or `none`. */
export function describeMigrations(set: MigrationSet): string {
  const parts = SERVICES.filter((service) => set[service].length > 0).map(
    (service) => `${service} ${set[service].join(', ')}`,
  );
  return parts.length > 0 ? parts.join('; ') : 'none';
}

export interface PreviousRelease {
  commit: string;
  /** How it was chosen: a release tag, the migration history, or named with --previous. */
  how: string;
}

/** What the rule looks at, as functions so that tests can give a history of their own. */
export interface History {
  head: string;
  /** Tags `v*` that HEAD contains, newest first, each with its commit. */
  releaseTags: { name: string; commit: string }[];
  /** HEAD's first-parent history, HEAD first. */
  firstParents: () => Iterable<string>;
  migrationsAt: (commit: string) => MigrationSet;
}

/**
 * The previous release (docs/architecture.md, "Migrations: expand, then contract"):
 * 1. the newest release tag `v*` that HEAD contains and that is not on HEAD itself, if any;
 * 2. otherwise the newest commit of HEAD's first-parent history (the commits `main` itself went
 *    through, HEAD included) whose list of migrations, in both services' folders, differs from the
 *    working tree's: the release before the newest change of schema. Names are compared, not
 *    contents: a migration edited after it ran (a comment) never runs again on a deployed database.
 * Undefined when no such commit exists (nothing to check).
 */
export function choosePrevious(history: History, current: MigrationSet): PreviousRelease | undefined {
  const tag = history.releaseTags.find((candidate) => candidate.commit !== history.head);
  if (tag) return { commit: tag.commit, how: `release tag ${tag.name}` };
  for (const commit of history.firstParents()) {
    if (!sameMigrations(history.migrationsAt(commit), current)) {
      return { commit, how: 'the newest first-parent commit whose migrations differ from the working tree' };
    }
  }
  return undefined;
}

/** The repository's own history. */
export function gitHistory(root: string): History {
  const head = git(root, ['rev-parse', 'HEAD']);
  const releaseTags = lines(
    git(root, [
      'for-each-ref',
      '--merged=HEAD',
      '--sort=-creatordate',
      '--format=%(refname:short) %(objectname) %(*objectname)',
      'refs/tags/v*',
    ]),
  ).map((line) => {
    const [name, object, peeled] = line.split(' ');
    // An annotated tag's commit is its peeled object; a lightweight tag points at the commit.
    return { name, commit: peeled || object };
  });
  return {
    head,
    releaseTags,
    firstParents: () => lines(git(root, ['rev-list', '--first-parent', 'HEAD'])),
    migrationsAt: (commit) => commitMigrations(root, commit),
  };
}

/** A commit's short id and subject, for messages. */
export function describeCommit(root: string, commit: string): string {
  const subject = git(root, ['log', '-1', '--format=%h %s', commit]);
  return subject.length > 100 ? `${subject.slice(0, 97)}...` : subject;
}
