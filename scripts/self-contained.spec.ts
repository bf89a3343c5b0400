import { execFileSync } from 'node:child_process';
import { lstatSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The repository stands alone: the interface, the design decisions and the style guide
 * live in docs/, so no file may point at the folder that used to sit beside the repository. Every
 * file git knows (tracked, or new and not ignored) is read, binary files aside, and each line that
 * mentions that folder is named with its file and line number.
 */
const repositoryRoot = join(__dirname, '..');

/** Written in two parts, so that this file does not mention it itself. */
const OUTSIDE_FOLDER = ['..', 'shared'].join('/');

/** Every path git lists, relative to the repository root (`-z`: any file name, as is). */
function filesOfRepository(): string[] {
  const listing = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: repositoryRoot,
    maxBuffer: 64 * 1024 * 1024,
  });
  return [...new Set(listing.toString('utf8').split('\0').filter(Boolean))];
}

/** Git's own test: a NUL byte in the first 8,000 bytes makes a file binary. */
function isBinary(content: Buffer): boolean {
  return content.subarray(0, 8000).includes(0);
}

/** `file:line: text` for each line of the file (or the target of a symbolic link) that mentions it. */
function mentionsIn(file: string): string[] {
  const path = join(repositoryRoot, file);
  let text: string;
  try {
    const stats = lstatSync(path);
    if (stats.isSymbolicLink()) text = readlinkSync(path);
    else if (stats.isFile()) {
      const content = readFileSync(path);
      if (isBinary(content)) return [];
      text = content.toString('utf8');
    } else return []; // a submodule's folder
  } catch (error) {
    // listed by git, deleted in the work tree and not committed yet
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return text
    .split(/\r?\n/)
    .flatMap((line, index) =>
      line.includes(OUTSIDE_FOLDER) ? [`${file}:${index + 1}: ${line.trim()}`] : [],
    );
}

describe('the repository stands alone', () => {
  it(`has no file that mentions ${OUTSIDE_FOLDER}`, () => {
    const files = filesOfRepository();
    // git answered with this repository, not with an empty listing
    expect(files).toContain('package.json');

    const mentions = files.flatMap(mentionsIn);
    if (mentions.length > 0) {
      throw new Error(
        `${mentions.length} line(s) point at ${OUTSIDE_FOLDER}, outside the repository; cite the ` +
          "repository's own files instead (docs/backend-api.md, docs/search-api.md, docs/decisions.md " +
          `with the decision's number, docs/contributing.md):\n${mentions.join('\n')}`,
      );
    }
  });
});
