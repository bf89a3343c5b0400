// The supply-chain step of `pnpm check:images` without podman: the SBOM's completeness against
// `pnpm list --prod` (sbom.ts) and the licence policy (licences.ts), on small hand-made trees.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  ALLOWED,
  checkLicences,
  DATA_EXCEPTIONS,
  declaredLicence,
  EXCEPTIONS,
  expressionAllowed,
} from './licences';
import {
  bomProblem,
  missingFromSbom,
  productionTree,
  sbomComponents,
  type Bom,
  type ListedProject,
} from './sbom';

const listed: ListedProject[] = [
  {
    name: 'backend',
    dependencies: {
      '@rt/platform': {
        from: '@rt/platform',
        version: 'link:../../libs/platform',
        path: '/ws/libs/platform',
        dependencies: {
          debug: {
            from: 'debug',
            version: '4.4.3',
            path: '/store/debug',
            dependencies: { ms: { from: 'ms', version: '2.1.3', path: '/store/ms' } },
          },
        },
      },
      // Listed again elsewhere as `deduped`, without its children.
      debug: { from: 'debug', version: '4.4.3', path: '/store/debug' },
      cliui: {
        from: 'cliui',
        version: '8.0.1',
        path: '/store/cliui',
        // An npm alias: the key is the alias, `from` the package.
        dependencies: { 'string-width-cjs': { from: 'string-width', version: '4.2.3', path: '/store/sw' } },
      },
      sharp: {
        from: 'sharp',
        version: '0.35.5',
        path: '/store/sharp',
        optionalDependencies: {
          '@img/sharp-linux-x64': { from: '@img/sharp-linux-x64', version: '0.35.5', path: '/store/x64' },
          '@img/sharp-darwin-arm64': { from: '@img/sharp-darwin-arm64', version: '0.35.5', path: '/gone' },
        },
      },
    },
  },
];
const installed = (path: string) => path !== '/gone';

const component = (name: string, version: string, licence?: string) => {
  const slash = name.startsWith('@') ? name.indexOf('/') : -1;
  return {
    ...(slash > 0 ? { group: name.slice(0, slash), name: name.slice(slash + 1) } : { name }),
    version,
    ...(licence ? { licenses: [{ expression: licence }] } : {}),
  };
};

const fullBom = (): Bom => ({
  bomFormat: 'CycloneDX',
  specVersion: '1.6',
  components: [
    component('@rt/platform', '0.1.0'),
    component('debug', '4.4.3', 'MIT'),
    component('ms', '2.1.3', 'MIT'),
    { ...component('cliui', '8.0.1', 'ISC'), components: [component('string-width', '4.2.3', 'MIT')] },
    component('sharp', '0.35.5', 'Apache-2.0'),
    component('@img/sharp-linux-x64', '0.35.5', 'Apache-2.0'),
  ],
});

describe('productionTree', () => {
  it('walks every installed production package once, by its real name, workspace packages apart', () => {
    const tree = productionTree(listed, installed);
    expect([...tree.packages].sort()).toEqual([
      '@img/sharp-linux-x64@0.35.5',
      'cliui@8.0.1',
      'debug@4.4.3',
      'ms@2.1.3',
      'sharp@0.35.5',
      'string-width@4.2.3',
    ]);
    expect([...tree.workspace]).toEqual(['@rt/platform']);
    expect([...tree.notInstalled]).toEqual(['@img/sharp-darwin-arm64@0.35.5']);
  });
});

describe('missingFromSbom', () => {
  it('finds nothing missing when the SBOM names every package, nested ones included', () => {
    expect(missingFromSbom(productionTree(listed, installed), fullBom())).toEqual([]);
  });

  it('names each production package the SBOM leaves out, and a version it names wrong', () => {
    const bom = fullBom();
    bom.components = bom.components!.filter((c) => c.name !== 'ms' && c.name !== 'platform');
    bom.components.find((c) => c.name === 'debug')!.version = '4.4.2';
    expect(missingFromSbom(productionTree(listed, installed), bom)).toEqual([
      '@rt/platform',
      'debug@4.4.3',
      'ms@2.1.3',
    ]);
  });
});

describe('bomProblem', () => {
  it('accepts a CycloneDX JSON SBOM and refuses anything else', () => {
    expect(bomProblem(fullBom())).toBeUndefined();
    expect(bomProblem({ spdxVersion: 'SPDX-2.3' })).toMatch(/not a CycloneDX/);
    expect(bomProblem({ bomFormat: 'CycloneDX', specVersion: '1.2', components: [] })).toMatch(/specVersion/);
    expect(bomProblem({ bomFormat: 'CycloneDX', specVersion: '1.6', components: [] })).toMatch(
      /no components/,
    );
  });
});

describe('the licence policy', () => {
  it('reads SPDX expressions: OR needs one allowed licence, AND all of them', () => {
    expect(expressionAllowed('MIT')).toBe(true);
    expect(expressionAllowed('(MPL-2.0 OR Apache-2.0)')).toBe(true);
    expect(expressionAllowed('(MIT AND BSD-3-Clause)')).toBe(true);
    expect(expressionAllowed('MIT AND GPL-3.0-only')).toBe(false);
    expect(expressionAllowed('GPL-2.0-only OR (MIT AND ISC)')).toBe(true);
    expect(expressionAllowed('Apache-2.0 WITH LLVM-exception')).toBe(true);
    expect(expressionAllowed('Apache-2.0+')).toBe(true);
    expect(expressionAllowed('SEE LICENSE IN LICENSE.md')).toBe(false);
    expect(expressionAllowed('(MIT')).toBe(false);
    expect(expressionAllowed('')).toBe(false);
  });

  it('states a component licence as one expression, or none', () => {
    expect(declaredLicence(component('a', '1', 'MIT'))).toBe('MIT');
    expect(
      declaredLicence({ name: 'a', licenses: [{ license: { id: 'MIT' } }, { license: { name: 'BSD' } }] }),
    ).toBe('(MIT) AND (BSD)');
    expect(declaredLicence({ name: 'a' })).toBe('none');
  });

  it('allows the allow-list, lets exceptions through with their reason, and refuses the rest by name', () => {
    const report = checkLicences(
      [
        component('@rt/platform', '0.1.0'),
        component('debug', '4.4.3', 'MIT'),
        component('@img/sharp-libvips-linux-x64', '1.3.4', 'LGPL-3.0-or-later'),
        component('decko', '1.2.0'),
        component('left-pad', '1.0.0', 'WTFPL'),
        component('copyleft', '2.0.0', 'GPL-3.0-only'),
        component('stickyfill', '1.1.2', 'GPL-3.0-only'),
      ],
      new Set(['@rt/platform']),
    );
    expect(report.allowed).toBe(1);
    expect(report.excepted).toEqual([
      expect.stringMatching(/^@img\/sharp-libvips-linux-x64@1\.3\.4 \(LGPL-3\.0-or-later\): libvips/),
      expect.stringMatching(/^decko@1\.2\.0 \(none\): .*MIT/),
    ]);
    // An exception holds for the licence it was granted for only: stickyfill under a new licence is refused.
    expect(report.refused).toEqual([
      'copyleft@2.0.0: GPL-3.0-only',
      'left-pad@1.0.0: WTFPL',
      'stickyfill@1.1.2: GPL-3.0-only',
    ]);
  });

  it('gives every exception a reason, and excepts nothing the allow-list already allows', () => {
    for (const exception of EXCEPTIONS) {
      expect(exception.reason.length).toBeGreaterThan(20);
      expect(exception.declared !== 'none' && expressionAllowed(exception.declared, ALLOWED)).toBe(false);
    }
  });

  it('records data under a licence the allow-list lacks, with its credit, for files that exist', () => {
    for (const exception of DATA_EXCEPTIONS) {
      expect(exception.reason.length).toBeGreaterThan(20);
      expect(exception.attribution).toMatch(/\S/);
      expect(expressionAllowed(exception.licence, ALLOWED)).toBe(false);
      for (const file of exception.files)
        expect([file, existsSync(join(__dirname, '..', '..', file))]).toEqual([file, true]);
    }
  });
});

describe('sbomComponents', () => {
  it('keys nested components by name@version', () => {
    expect([...sbomComponents(fullBom()).keys()]).toContain('string-width@4.2.3');
  });
});
