// The supply-chain step of `pnpm check:images`, for one built image: the SBOM at the path its label
// names is copied out beside the image (for a scanner), must name every production dependency of
// the service as pnpm resolves it, and its licences must pass the policy (licences.ts).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkLicences } from './licences';
import { mustPodman } from './podman';
import { bomProblem, missingFromSbom, productionTree, SBOM_LABEL, sbomComponents, type Bom } from './sbom';
import type { ListedProject } from './sbom';
import { log, must } from './shell';

export interface SbomOutcome {
  /** Where the SBOM was written on this machine. */
  file: string;
  packages: number;
}

export async function checkImageSbom(
  root: string,
  service: string,
  image: string,
  outDir: string,
): Promise<SbomOutcome> {
  const path = (
    await mustPodman(['image', 'inspect', '--format', `{{index .Config.Labels "${SBOM_LABEL}"}}`, image])
  ).trim();
  if (!path.startsWith('/') || path === '<no value>')
    throw new Error(`${image} has no label ${SBOM_LABEL} naming its SBOM's absolute path (found "${path}")`);

  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, `${image.replace(/^localhost\//, '').replace(/[:/]/g, '_')}.cdx.json`);
  const container = `image-check-sbom-${randomBytes(4).toString('hex')}`;
  await mustPodman(['create', '--name', container, image]);
  try {
    await mustPodman(['cp', `${container}:${path}`, file]);
  } catch (error) {
    throw new Error(
      `${image}: its label ${SBOM_LABEL} names ${path}, which the image does not hold: ${(error as Error).message}`,
    );
  } finally {
    await mustPodman(['rm', '--force', container]);
  }
  if (!existsSync(file)) throw new Error(`${image}: copying ${path} out of the image wrote nothing`);
  let bom: Bom;
  try {
    bom = JSON.parse(readFileSync(file, 'utf8')) as Bom;
  } catch (error) {
    throw new Error(`${image}: ${path} is not JSON: ${(error as Error).message}`);
  }
  const problem = bomProblem(bom);
  if (problem) throw new Error(`${image}: ${path} ${problem}`);

  // The production tree as pnpm resolves it from the lockfile, which the image installed from.
  // (stdout and stderr come interleaved: the JSON is from the first "[" to the last "]")
  const output = await must(
    'pnpm',
    ['--silent', '--filter', service, 'list', '--prod', '--depth', 'Infinity', '--json'],
    { cwd: root },
  );
  const listed = JSON.parse(
    output.slice(output.indexOf('['), output.lastIndexOf(']') + 1),
  ) as ListedProject[];
  const tree = productionTree(listed, existsSync);
  const missing = missingFromSbom(tree, bom);
  if (missing.length > 0)
    throw new Error(
      `${image}: the SBOM ${path} does not name ${missing.length} production ` +
        `dependenc${missing.length === 1 ? 'y' : 'ies'} of ${service}: ${missing.join(', ')}`,
    );
  const expected = tree.packages.size + tree.workspace.size;
  log(
    `${service}: SBOM ${path} (label ${SBOM_LABEL}, CycloneDX ${bom.specVersion}) names all ${expected} ` +
      `production packages of pnpm list --prod (${tree.notInstalled.size} optional ones for other platforms ` +
      `not installed); written to ${file}`,
  );

  const licences = checkLicences(sbomComponents(bom).values(), tree.workspace);
  if (licences.refused.length > 0)
    throw new Error(
      `${image}: ${licences.refused.length} production package(s) under a licence that ` +
        `scripts/image-check/licences.ts neither allows nor excepts (add it to ALLOWED, or an ` +
        `exception with its reason):\n  ${licences.refused.join('\n  ')}`,
    );
  log(
    `${service}: licences: ${licences.allowed} packages on the allow-list, ${licences.excepted.length} by ` +
      `exception (${licences.excepted.map((e) => e.split(' ')[0]).join(', ') || 'none'})`,
  );
  return { file, packages: expected };
}
