/**
 * The deployment check with its tools: kubectl renders the overlays, promtool checks and tests the
 * alert rules. Run by `pnpm check:deploy` (jest.deploy.config.js), not by `pnpm test`, which needs
 * only Node: deploy-check.spec.ts tests the same rules on a rendered fixture, with no tool. The
 * check on the repository as it is runs just before, in the same command.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { checkKubernetes } from './kubernetes';
import { checkMonitoring } from './monitoring';
import { copyOfRepository, edit } from './repository-copy.spec-helper';

let root: string;
beforeEach(() => {
  root = copyOfRepository();
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('Kubernetes manifests', () => {
  it('fails when a Deployment loses its readiness probe', () => {
    edit(root, 'k8s/base/backend/deployment.yaml', /\n {10}readinessProbe:\n( {12}.*\n)+/, '\n');
    expect(checkKubernetes(root)).toEqual(
      expect.arrayContaining([
        'k8s/overlays/production: Deployment/backend container backend: readinessProbe must be an HTTP GET of /health/ready',
        'k8s/overlays/staging: Deployment/backend container backend: readinessProbe must be an HTTP GET of /health/ready',
      ]),
    );
  });

  it('fails on a writable root filesystem, a missing limit and a latest tag', () => {
    edit(
      root,
      'k8s/base/search/deployment.yaml',
      'readOnlyRootFilesystem: true',
      'readOnlyRootFilesystem: false',
    );
    edit(root, 'k8s/base/search/deployment.yaml', "              cpu: '2'\n", '');
    edit(root, 'k8s/overlays/production/kustomization.yaml', /newTag: 0\.1\.0/, 'newTag: latest');
    const problems = checkKubernetes(root);
    expect(problems).toEqual(
      expect.arrayContaining([
        'k8s/overlays/production: Deployment/search container search: readOnlyRootFilesystem is not true',
        'k8s/overlays/production: Deployment/search container search: has no cpu limit',
        expect.stringMatching(
          /production: Deployment\/backend container backend: image .*:latest uses a "latest" tag/,
        ),
      ]),
    );
    expect(
      problems.some((problem) => problem.startsWith('k8s/overlays/staging') && problem.includes('latest')),
    ).toBe(false);
  });

  it('fails when a service has no migration Job or the overlay does not render', () => {
    edit(root, 'k8s/base/search/kustomization.yaml', '  - migrate-job.yaml\n', '');
    expect(checkKubernetes(root)).toContain(
      "k8s/overlays/staging: search: no Job runs `node dist/database/migrate.js` with the Deployment's image registry.example.com/road-trip/search:0.1.0",
    );
    edit(
      root,
      'k8s/overlays/staging/kustomization.yaml',
      '  - ../../base/shared\n',
      '  - ../../base/missing\n',
    );
    expect(checkKubernetes(root)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^k8s\/overlays\/staging: kubectl kustomize k8s\/overlays\/staging failed/),
      ]),
    );
  });
});

describe('the CloudNativePG component (k8s/components/database)', () => {
  const overlay = 'k8s/overlays/production-database';
  const component = 'k8s/components/database';

  it('fails on a misspelt field, a wrong enum and a missing required field of its kinds', () => {
    edit(root, `${component}/pooler.yaml`, 'poolMode: transaction', 'poolMode: statement');
    edit(root, `${component}/cluster.yaml`, 'enablePodAntiAffinity: true', 'enablePodAntiAfinity: true');
    edit(root, `${component}/scheduled-backup.yaml`, "  schedule: '0 0 1 * * *'\n", '');
    expect(checkKubernetes(root)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          new RegExp(
            `^${overlay}: Pooler/road-trip-db-pooler-rw: schema: /spec/pgbouncer/poolMode must be equal to one of the allowed values`,
          ),
        ),
        `${overlay}: Cluster/road-trip-db: schema: /spec/affinity must NOT have additional properties (enablePodAntiAfinity)`,
        `${overlay}: ScheduledBackup/road-trip-db-nightly: schema: /spec must have required property 'schedule'`,
      ]),
    );
  });
});

describe('monitoring (ServiceMonitors, PrometheusRule, dashboards)', () => {
  it('fails, never skips, when promtool is not installed', () => {
    const path = process.env.PATH;
    // kubectl stays reachable, promtool does not.
    process.env.PATH = (path ?? '')
      .split(':')
      .filter((dir) => !existsSync(join(dir, 'promtool')))
      .join(':');
    try {
      expect(checkMonitoring(root)).toEqual([
        expect.stringMatching(/promtool is not installed.*Debian's `prometheus` package/),
      ]);
    } finally {
      process.env.PATH = path;
    }
  });

  it('fails on a rule promtool refuses and on an alert whose runbook section is missing', () => {
    edit(
      root,
      'k8s/base/monitoring/prometheusrule.yaml',
      'expr: up{job=~"backend|search"} == 0',
      'expr: up{job=~"backend|search"} == == 0',
    );
    edit(root, 'docs/observability.md', '### RoadTripEmbeddingCircuitOpen', '### The embedding circuit');
    const problems = checkMonitoring(root);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^k8s\/overlays\/production: PrometheusRule\/road-trip: promtool check rules .*failed/,
        ),
        'k8s/overlays/staging: PrometheusRule/road-trip alert RoadTripEmbeddingCircuitOpen: docs/observability.md has no section #roadtripembeddingcircuitopen',
      ]),
    );
  });

  it('fails when an alert no longer fires as its unit test expects', () => {
    edit(
      root,
      'k8s/base/monitoring/prometheusrule.yaml',
      'search_embedding_circuit_state{job="search"}) == 2',
      'search_embedding_circuit_state{job="search"}) == 3',
    );
    expect(checkMonitoring(root)).toEqual([
      expect.stringMatching(/^k8s\/base\/monitoring\/alerts\.test\.yaml: .*RoadTripEmbeddingCircuitOpen/s),
    ]);
  });
});
