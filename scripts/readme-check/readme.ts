// What the README check reads from README.md: the blocks and lines it runs, the URLs it opens, and
// the facts it holds against the repository (every variable documented, every file it names).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Block {
  /** The fence's language (`sh`, `ts` …). */
  lang: string;
  body: string;
}

/**
 * The fenced block right after the marker `<!-- readme-check: <name> … -->`. The markers say which
 * blocks the check runs as written, so moving or rewording the prose around them changes nothing.
 */
export function markedBlock(readme: string, name: string): Block {
  const marker = new RegExp(
    `<!-- readme-check: ${name}\\b[^>]*-->\\n\`\`\`(\\w*)\\n([\\s\\S]*?)\\n\`\`\`(?:\\n|$)`,
  );
  const found = marker.exec(readme);
  if (!found) throw new Error(`README.md: no fenced block right after <!-- readme-check: ${name} -->`);
  return { lang: found[1], body: found[2] };
}

/** What follows the marker `<!-- readme-check: <name> … -->` up to the next blank line (a table). */
export function markedTable(readme: string, name: string): string {
  const found = new RegExp(`<!-- readme-check: ${name}\\b[^>]*-->\\n((?:\\|.*\\n?)+)`).exec(readme);
  if (!found) throw new Error(`README.md: no table right after <!-- readme-check: ${name} -->`);
  return found[1];
}

/** The text of the `## ` section named `heading`, up to the next `## ` heading. */
export function section(readme: string, heading: string): string {
  const start = readme.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`README.md: no section "## ${heading}"`);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** Every `<http://localhost:…>` link of a text, in order, each once. */
export const localUrls = (text: string): string[] => [
  ...new Set([...text.matchAll(/<(http:\/\/localhost:\d+[^>\s]*)>/g)].map((match) => match[1])),
];

export interface Ports {
  backend: number;
  search: number;
}

/** The README's default ports (3000, 3001) in a URL or command, moved to the ports of this run. */
export const withPorts = (text: string, ports: Ports): string =>
  text
    .replace(/localhost:3000\b/g, `localhost:${ports.backend}`)
    .replace(/localhost:3001\b/g, `localhost:${ports.search}`);

/**
 * The variables the configuration table names in its first column, in backticks; `PREFIX_*`
 * stands for every variable starting with `PREFIX_` (documented where the row points).
 */
export function documentedVariables(readme: string): string[] {
  const names: string[] = [];
  for (const row of markedTable(readme, 'variables').split('\n').slice(2)) {
    const firstCell = row.split('|')[1] ?? '';
    for (const match of firstCell.matchAll(/`([A-Z][A-Z0-9_]*\*?)`/g)) names.push(match[1]);
  }
  return names;
}

/**
 * Where the variables of a local run are read: the services' configuration classes (each service's
 * `src/config.ts` and its features' sections, the `*.settings.ts` files under `src/`) and
 * `pnpm start`'s script.
 */
export function configFiles(root: string): string[] {
  const sections = ['apps/backend/src', 'apps/search/src'].flatMap((dir) =>
    readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.settings.ts'))
      .map((file) => `${dir}/${file}`)
      .sort(),
  );
  return [
    'libs/platform/src/config.ts',
    'apps/backend/src/config.ts',
    'apps/search/src/config.ts',
    ...sections,
    'scripts/start-all.mjs',
  ];
}

/** Every variable those files read: the classes' properties, and the script's `process.env.X`. */
export function configuredVariables(root: string): string[] {
  const names = new Set<string>();
  for (const file of configFiles(root)) {
    const text = readFileSync(join(root, file), 'utf8');
    const pattern = file.endsWith('.mjs')
      ? /process\.env\.([A-Z][A-Z0-9_]*)/g
      : /^ {2}([A-Z][A-Z0-9_]*)[?!]?:/gm;
    for (const match of text.matchAll(pattern)) names.add(match[1]);
  }
  return [...names].sort();
}

/** The variables of `configured` that no name of `documented` covers (exactly, or by its prefix). */
export function undocumented(documented: string[], configured: string[]): string[] {
  return configured.filter(
    (name) =>
      !documented.some((doc) => (doc.endsWith('*') ? name.startsWith(doc.slice(0, -1)) : doc === name)),
  );
}

/**
 * The repository paths the README names (`docs/decisions.md`, `apps/search/README.md`,
 * `k8s/components/database` …), for the check that each exists: what a build or a run writes
 * (`dist`, `.data`) and patterns (`apps/<app>/…`) left out.
 */
export function namedPaths(readme: string): string[] {
  const pattern = /(?<![\w/.:-])((?:docs|apps|libs|scripts|docker|k8s|test|\.ci|\.github)\/[\w./-]*[\w-])/g;
  const paths = [...readme.matchAll(pattern)].map((match) => match[1]);
  return [...new Set(paths)].filter((path) => !/(^|\/)(dist|\.data)(\/|$)/.test(path));
}

export const missingPaths = (root: string, paths: string[]): string[] =>
  paths.filter((path) => !existsSync(join(root, path)));

/** The pnpm version the quick start installs (`npm install -g pnpm@<version>`). */
export function quickStartPnpmVersion(commands: string): string {
  const found = /npm install -g pnpm@(\S+)/.exec(commands);
  if (!found) throw new Error('README.md: the quick start does not install pnpm (npm install -g pnpm@…)');
  return found[1];
}

/** The two lines the README says a start prints once each service is up. */
export function listeningLines(readme: string): string[] {
  const lines = [...readme.matchAll(/`((?:Backend|Search) listening on http:\/\/localhost:\d+[^`]*)`/g)].map(
    (match) => match[1],
  );
  const distinct = [...new Set(lines)];
  if (distinct.length !== 2)
    throw new Error(`README.md: expected the two "… listening on …" lines, found ${distinct.length}`);
  return distinct;
}

/** The viewing hats the README lists for `X-Viewing-As` (which the 422 for a missing one names too). */
export function viewingHats(readme: string): string[] {
  const found = /`X-Viewing-As` header: `([^`]+)`, `([^`]+)` or `([^`]+)`/.exec(readme);
  if (!found) throw new Error('README.md: no list of the `X-Viewing-As` hats ("header: `a`, `b` or `c`")');
  return found.slice(1, 4);
}

/**
 * The JSON values a shell block printed one after the other (curl adds no newline after a body):
 * each top-level object or array, in order.
 */
export function concatenatedJson(output: string): unknown[] {
  const values: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < output.length; i++) {
    const char = output[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"' && depth > 0) inString = true;
    else if (char === '{' || char === '[') {
      if (depth === 0) start = i;
      depth++;
    } else if ((char === '}' || char === ']') && depth > 0) {
      depth--;
      if (depth === 0) values.push(JSON.parse(output.slice(start, i + 1)));
    }
  }
  return values;
}

/** The example app's source (a package of the workspace), which the README's typed-client block shows. */
export const EXAMPLE_SOURCE = 'examples/typed-client/src/main.ts';

/**
 * Where the README's typed-client block and the example's source first part (`line N: …`), or
 * null when the block is the file as it is (its last newline aside).
 */
export function exampleDrift(block: string, source: string): string | null {
  const shown = block.split('\n');
  const file = source.replace(/\n$/, '').split('\n');
  for (let i = 0; i < Math.max(shown.length, file.length); i++) {
    if (shown[i] !== file[i]) {
      const quote = (line: string | undefined) => (line === undefined ? 'nothing' : JSON.stringify(line));
      return `line ${i + 1}: the README shows ${quote(shown[i])}, ${EXAMPLE_SOURCE} has ${quote(file[i])}`;
    }
  }
  return null;
}

/** The address and token of an invitation email's link (`…/accept-invitation?token=…&email=…`), or null. */
export function invitationOf(mailText: string): { email: string; token: string } | null {
  const link = /\/accept-invitation\?(\S+)/.exec(mailText);
  if (!link) return null;
  const query = new URLSearchParams(link[1]);
  const email = query.get('email');
  const token = query.get('token');
  return email && token ? { email, token } : null;
}
