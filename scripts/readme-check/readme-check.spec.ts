import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandOf } from './processes';
import {
  concatenatedJson,
  configuredVariables,
  documentedVariables,
  EXAMPLE_SOURCE,
  exampleDrift,
  invitationOf,
  listeningLines,
  localUrls,
  markedBlock,
  missingPaths,
  namedPaths,
  quickStartPnpmVersion,
  section,
  undocumented,
  viewingHats,
  withPorts,
} from './readme';

/**
 * What `pnpm check:readme` reads from README.md, and the facts it holds against the repository
 * without running anything (the run itself is `pnpm check:readme`, once in CI).
 */
const root = join(__dirname, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

describe('the README check', () => {
  it('finds the quick start, the sign-in and the typed-client blocks by their markers', () => {
    const commands = markedBlock(readme, 'commands');
    expect(commands.lang).toBe('sh');
    expect(commands.body.split('\n')).toEqual([
      expect.stringMatching(/^npm install -g pnpm@\S+ && pnpm install$/),
      'pnpm start',
      'pnpm test',
    ]);
    expect(markedBlock(readme, 'sign-in')).toMatchObject({
      lang: 'sh',
      body: expect.stringContaining("-H 'X-Viewing-As: super-admin'"),
    });
    expect(markedBlock(readme, 'typed-client')).toMatchObject({
      lang: 'ts',
      body: expect.stringContaining("from '@rt/client'"),
    });
    expect(() => markedBlock('no marker here', 'commands')).toThrow(/readme-check: commands/);
  });

  it("shows the example app's source as it is in the typed-client block, and names the first line that differs", () => {
    const source = readFileSync(join(root, EXAMPLE_SOURCE), 'utf8');
    expect(exampleDrift(markedBlock(readme, 'typed-client').body, source)).toBeNull();
    expect(exampleDrift('a\nb', 'a\nb\n')).toBeNull();
    expect(exampleDrift('a\nB', 'a\nb\n')).toBe(`line 2: the README shows "B", ${EXAMPLE_SOURCE} has "b"`);
    expect(exampleDrift('a', 'a\nb\n')).toBe(`line 2: the README shows nothing, ${EXAMPLE_SOURCE} has "b"`);
  });

  it("reads the address and token of an invitation email's link", () => {
    const text =
      'Choose your password:\nhttp://localhost:5173/accept-invitation?token=Ab12cD&email=reseller.manager%40example.com\n';
    expect(invitationOf(text)).toEqual({ email: 'reseller.manager@example.com', token: 'Ab12cD' });
    expect(invitationOf('http://localhost:5173/reset-password?token=Ab12cD&email=a%40b.c')).toBeNull();
  });

  it('reads the URLs of the quick start, both services docs among them, and moves their ports', () => {
    const urls = localUrls(section(readme, 'Quick start'));
    expect(urls).toEqual(
      expect.arrayContaining([
        'http://localhost:3000/api/docs',
        'http://localhost:3001/docs',
        'http://localhost:3001/openapi.json',
        'http://localhost:3000/health/ready',
      ]),
    );
    expect(
      withPorts('curl localhost:3000/api/user; open http://localhost:3001/docs localhost:30001', {
        backend: 4100,
        search: 4101,
      }),
    ).toBe('curl localhost:4100/api/user; open http://localhost:4101/docs localhost:30001');
    expect(listeningLines(readme)).toEqual([
      'Backend listening on http://localhost:3000/api',
      'Search listening on http://localhost:3001',
    ]);
    expect(viewingHats(readme)).toEqual(['super-admin', 'traveller', 'organization:<organization id>']);
  });

  it('documents every variable a local run reads', () => {
    const configured = configuredVariables(root);
    expect(configured).toEqual(
      expect.arrayContaining(['BACKEND_PORT', 'SEARCH_PORT', 'DATA_DIR', 'LOG_FORMAT']),
    );
    expect(configured).toEqual(
      expect.arrayContaining(['APP_ENV', 'IMGPROXY_KEY', 'WITH_DOCS', 'EMBEDDING_URL']),
    );
    expect(undocumented(documentedVariables(readme), configured)).toEqual([]);
    expect(undocumented(['S3_*', 'PORT'], ['S3_BUCKET', 'PORT', 'PORTS', 'SEARCH_PORT'])).toEqual([
      'PORTS',
      'SEARCH_PORT',
    ]);
  });

  it('names only files of this repository, none outside it', () => {
    const paths = namedPaths(readme);
    expect(paths).toEqual(
      expect.arrayContaining(['docs/decisions.md', 'docs/backend-api.md', 'docs/search-api.md']),
    );
    expect(missingPaths(root, paths)).toEqual([]);
    // scripts/self-contained.spec.ts checks every file for references outside the repository
  });

  it('installs the pnpm of package.json', () => {
    const { packageManager } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      packageManager: string;
    };
    expect(`pnpm@${quickStartPnpmVersion(readme)}`).toBe(packageManager);
  });

  it('reads the answers curl printed one after the other, and runs plain commands without a shell', () => {
    expect(concatenatedJson('{"a":"}{"}[1,{"b":[2]}]\n{"c":"\\"x"}')).toEqual([
      { a: '}{' },
      [1, { b: [2] }],
      { c: '"x' },
    ]);
    expect(commandOf('pnpm start')).toEqual({ command: 'pnpm', args: ['start'] });
    expect(commandOf('TOKEN=$(curl -s x) && echo "$TOKEN"')).toEqual({
      command: 'bash',
      args: ['-e', '-o', 'pipefail', '-c', 'TOKEN=$(curl -s x) && echo "$TOKEN"'],
    });
  });
});
