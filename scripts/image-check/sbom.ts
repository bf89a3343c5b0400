// The SBOM an image carries (docker/sbom.mjs writes it in the build stage): is it complete, and are
// the licences it names allowed (licences.ts)? Pure functions here; cli.ts reads the image and runs
// `pnpm list`.

/** The label naming the SBOM's path inside the image (both Dockerfiles set it). */
export const SBOM_LABEL = 'org.opencontainers.image.sbom';

/** A CycloneDX licence choice: an SPDX id, a free name, or an SPDX expression. */
export interface LicenceChoice {
  license?: { id?: string; name?: string };
  expression?: string;
}

export interface Component {
  group?: string;
  name: string;
  version?: string;
  licenses?: LicenceChoice[];
  components?: Component[];
}

export interface Bom {
  bomFormat?: string;
  specVersion?: string;
  metadata?: { component?: Component };
  components?: Component[];
}

/** A package of `pnpm list --json`: `from` is the real name (the key may be an npm alias). */
export interface ListedPackage {
  from?: string;
  version: string;
  path?: string;
  dependencies?: Record<string, ListedPackage>;
  optionalDependencies?: Record<string, ListedPackage>;
}

export interface ListedProject {
  name: string;
  dependencies?: Record<string, ListedPackage>;
  optionalDependencies?: Record<string, ListedPackage>;
}

export const fullName = (c: Component): string => (c.group ? `${c.group}/${c.name}` : c.name);

/** Every component of the SBOM (nested ones too), by `name@version`. */
export function sbomComponents(bom: Bom): Map<string, Component> {
  const found = new Map<string, Component>();
  const walk = (components: Component[] = []) => {
    for (const component of components) {
      found.set(`${fullName(component)}@${component.version ?? ''}`, component);
      walk(component.components);
    }
  };
  walk(bom.components);
  return found;
}

export interface ProductionTree {
  /** `name@version` of every installed production package (registry packages). */
  packages: Set<string>;
  /** The workspace packages it deploys (`link:` versions in the list), by name. */
  workspace: Set<string>;
  /** Optional packages pnpm lists but did not install here (other platforms' binaries): `name@version`. */
  notInstalled: Set<string>;
}

/**
 * The production dependency tree of a service as `pnpm --filter <service> list --prod --depth
 * Infinity --json` answers it, walked whole (pnpm marks repeated subtrees `deduped` and lists their
 * children once, elsewhere). A package whose folder does not exist (`installed(path)` false) is an
 * optional dependency for another platform, which no image of this machine's platform deploys.
 */
export function productionTree(
  projects: ListedProject[],
  installed: (path: string) => boolean,
): ProductionTree {
  const tree: ProductionTree = { packages: new Set(), workspace: new Set(), notInstalled: new Set() };
  const seen = new Set<string>();
  const walk = (deps: Record<string, ListedPackage> = {}) => {
    for (const [key, pkg] of Object.entries(deps)) {
      const name = pkg.from ?? key;
      const id = `${name}@${pkg.version}`;
      if (pkg.path && !installed(pkg.path)) {
        tree.notInstalled.add(id);
        continue;
      }
      if (pkg.version.startsWith('link:') || pkg.version.startsWith('file:')) tree.workspace.add(name);
      else tree.packages.add(id);
      // A path can be listed once in full and elsewhere as `deduped`: walk each node's children once.
      const visit = `${pkg.path ?? id}|${Object.keys(pkg.dependencies ?? {}).length}`;
      if (seen.has(visit)) continue;
      seen.add(visit);
      walk(pkg.dependencies);
      walk(pkg.optionalDependencies);
    }
  };
  for (const project of projects) {
    walk(project.dependencies);
    walk(project.optionalDependencies);
  }
  return tree;
}

/** The production packages the SBOM does not name (workspace packages by name, the others by name@version). */
export function missingFromSbom(tree: ProductionTree, bom: Bom): string[] {
  const components = sbomComponents(bom);
  const names = new Set([...components.values()].map(fullName));
  return [
    ...[...tree.workspace].filter((name) => !names.has(name)),
    ...[...tree.packages].filter((id) => !components.has(id)),
  ].sort();
}

/** The SBOM is a CycloneDX JSON document with components: a problem, or undefined. */
export function bomProblem(bom: unknown): string | undefined {
  const doc = bom as Bom | null;
  if (!doc || typeof doc !== 'object' || doc.bomFormat !== 'CycloneDX')
    return 'is not a CycloneDX JSON document (bomFormat)';
  if (!/^1\.[4-9]$/.test(doc.specVersion ?? ''))
    return `has specVersion ${doc.specVersion}, not 1.4 or later`;
  if (!Array.isArray(doc.components) || doc.components.length === 0) return 'lists no components';
  return undefined;
}
