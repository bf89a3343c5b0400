import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { checkDeployment } from './check';
import { checkCompose } from './compose';
import { checkDockerfiles } from './dockerfiles';
import { checkKubernetes } from './kubernetes';
import { checkMonitoring, selectorsOf } from './monitoring';
import { checkWorkflows } from './workflows';

const repositoryRoot = join(__dirname, '..', '..');
const skipped = new Set(['node_modules', 'dist', '.git', '.data', '.test-results', 'coverage']);

/** A copy of the repository (sources only) that a test may break. */
function copyOfRepository(): string {
  const copy = mkdtempSync(join(tmpdir(), 'deploy-check-'));
  cpSync(repositoryRoot, copy, {
    recursive: true,
    filter: (source) =>
      !relative(repositoryRoot, source)
        .split(sep)
        .some((part) => skipped.has(part)),
  });
  return copy;
}

/** Replaces `search` by `replacement` in one file of the copy, and fails when it is not there. */
function edit(root: string, file: string, search: string | RegExp, replacement: string): void {
  const path = join(root, file);
  const text = readFileSync(path, 'utf8');
  const changed = text.replace(search, replacement);
  if (changed === text) throw new Error(`${file} does not contain ${String(search)}`);
  writeFileSync(path, changed);
}

let root: string;
beforeEach(() => {
  root = copyOfRepository();
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('pnpm check:deploy', () => {
  it('passes on the repository as it is', async () => {
    const results = await checkDeployment(root);
    expect(results.flatMap((result) => result.problems)).toEqual([]);
    expect(results).toHaveLength(5);
  });
});

describe('Kubernetes manifests', () => {
  it('fails, never skips, when kubectl is not installed', () => {
    const path = process.env.PATH;
    process.env.PATH = mkdtempSync(join(tmpdir(), 'no-kubectl-'));
    try {
      expect(checkKubernetes(root)).toEqual([
        expect.stringMatching(/kubectl is not installed.*install kubectl/),
      ]);
    } finally {
      process.env.PATH = path;
    }
  });

  it('fails when a Deployment loses its readiness probe', () => {
    edit(root, 'k8s/base/backend/deployment.yaml', /\n {10}readinessProbe:\n( {12}.*\n)+/, '\n');
    expect(checkKubernetes(root)).toEqual(
      expect.arrayContaining([
        'k8s/overlays/production: Deployment/backend container backend: readinessProbe must be an HTTP GET of /health/ready',
        'k8s/overlays/staging: Deployment/backend container backend: readinessProbe must be an HTTP GET of /health/ready',
      ]),
    );
  });

  it('fails on an object that does not match the schema of its kind', () => {
    edit(root, 'k8s/base/search/service.yaml', 'port: 3001', 'port: three-thousand-one');
    expect(checkKubernetes(root)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/Service\/search: schema: \/spec\/ports\/0\/port must be integer/),
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

  it('fails on a secret value in the manifests', () => {
    edit(
      root,
      'k8s/base/backend/kustomization.yaml',
      '      - LOG_LEVEL=info\n',
      '      - LOG_LEVEL=info\n      - CONTRACT_ACCESS_TOKEN=x\n',
    );
    expect(checkKubernetes(root)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/ConfigMap\/backend-config-\w+: CONTRACT_ACCESS_TOKEN is a secret/),
      ]),
    );
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

  it('fails when the Ingress exposes the metrics or stops routing /img', () => {
    edit(root, 'k8s/base/shared/ingress.yaml', 'path: /img', 'path: /metrics');
    expect(checkKubernetes(root)).toEqual(
      expect.arrayContaining([
        'k8s/overlays/production: the Ingress does not route /img to the backend',
        'k8s/overlays/production: the Ingress exposes /metrics of backend (metrics, health and reindex stay internal)',
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

  it('fails on too few instances, an unpinned image, no scheduled backup and a reference to another cluster', () => {
    edit(root, `${component}/cluster.yaml`, 'instances: 3', 'instances: 1');
    edit(
      root,
      `${component}/cluster.yaml`,
      /imageName: .*/,
      'imageName: ghcr.io/cloudnative-pg/postgresql:latest',
    );
    edit(root, `${component}/kustomization.yaml`, '  - scheduled-backup.yaml\n', '');
    edit(root, `${component}/pooler.yaml`, 'name: road-trip-db\n', 'name: other-db\n');
    const problems = checkKubernetes(root);
    expect(problems).toEqual(
      expect.arrayContaining([
        `${overlay}: Cluster/road-trip-db: needs 3 instances (a primary and two replicas)`,
        expect.stringMatching(new RegExp(`^${overlay}: Cluster/road-trip-db: .*latest`)),
        `${overlay}: Cluster/road-trip-db: no ScheduledBackup backs it up`,
        `${overlay}: Pooler/road-trip-db-pooler-rw: refers to Cluster other-db, which the overlay does not define`,
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

  it('fails on a metric or a label that no service exports, in a rule or a dashboard', () => {
    edit(
      root,
      'k8s/base/monitoring/prometheusrule.yaml',
      'mail_outbox_messages{job="backend", state="pending"}) > 500',
      'mail_outbox_pending{job="backend"}) > 500',
    );
    edit(
      root,
      'k8s/base/monitoring/dashboards/search.json',
      'search_travels_requests_total{job=\\"search\\", namespace=\\"$namespace\\"}',
      'search_travels_requests_total{job=\\"search\\", kind=\\"x\\"}',
    );
    expect(checkMonitoring(root)).toEqual(
      expect.arrayContaining([
        'k8s/overlays/production: PrometheusRule/road-trip RoadTripOutboxBacklog: uses the metric mail_outbox_pending, which neither service exports',
        'k8s/overlays/staging: ConfigMap/road-trip-dashboard-search search.json panel "Listings by kind": matches search_travels_requests_total on the label kind, which it does not have',
      ]),
    );
  });

  it('fails on a dashboard that is not JSON, a panel without a query and a service without a monitor', () => {
    edit(root, 'k8s/base/monitoring/dashboards/backend.json', /^\{/, '{,');
    const searchDashboard = join(root, 'k8s/base/monitoring/dashboards/search.json');
    const dashboard = JSON.parse(readFileSync(searchDashboard, 'utf8'));
    dashboard.panels.find((p: { title?: string }) => p.title === 'Request rate by route').targets = [];
    writeFileSync(searchDashboard, JSON.stringify(dashboard));
    edit(root, 'k8s/base/monitoring/kustomization.yaml', '  - servicemonitor-search.yaml\n', '');
    expect(checkMonitoring(root)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^k8s\/overlays\/production: ConfigMap\/road-trip-dashboard-backend backend\.json: not JSON/,
        ),
        'k8s/overlays/production: ConfigMap/road-trip-dashboard-search search.json panel "Request rate by route": has no query',
        'k8s/overlays/production: Service/search: no ServiceMonitor scrapes /metrics on one of its named ports',
        'k8s/overlays/production: no Grafana dashboard is tagged backend',
      ]),
    );
  });

  it("validates the shape of the operator's kinds, which kubernetes-models does not know", () => {
    edit(
      root,
      'k8s/base/monitoring/servicemonitor-backend.yaml',
      '    - port: http\n',
      '    - scheme: http\n',
    );
    expect(checkKubernetes(root)).toEqual(
      expect.arrayContaining([
        'k8s/overlays/production: ServiceMonitor/backend: schema: /spec/endpoints/0 names no port',
      ]),
    );
  });

  it('reads the series selectors of an expression, functions, keywords and label lists aside', () => {
    expect(
      selectorsOf(
        'histogram_quantile(0.95, sum by (route, le) (rate(http_request_duration_seconds_bucket{job="x", route!~"/a{1}"}[5m]))) / on (job) group_left up > 2 and time() - foo offset 1h',
      ),
    ).toEqual([
      { metric: 'http_request_duration_seconds_bucket', labels: ['job', 'route'] },
      { metric: 'up', labels: [] },
      { metric: 'foo', labels: [] },
    ]);
  });
});

describe('Dockerfiles', () => {
  it('fails on a lint error, a root user and an unpinned base image', () => {
    edit(root, 'docker/backend.Dockerfile', 'EXPOSE 3000', 'EXPOSE http');
    edit(root, 'docker/backend.Dockerfile', 'USER 1000:1000', 'USER root');
    edit(
      root,
      'docker/search.Dockerfile',
      /FROM node:24\.21\.0-bookworm-slim AS runtime/,
      'FROM node:latest AS runtime',
    );
    expect(checkDockerfiles(root)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^docker\/backend\.Dockerfile:\d+: Invalid containerPort: http$/),
        'docker/backend.Dockerfile: the final stage must run as a non-root USER',
        'docker/search.Dockerfile: FROM image node:latest uses a "latest" tag (pin a version or a digest)',
      ]),
    );
  });

  it('fails when a COPY source is missing from the context or excluded by .dockerignore', () => {
    edit(
      root,
      'docker/search.Dockerfile',
      'COPY package.json tsconfig.base.json ./',
      'COPY package.json tsconfig.missing.json ./',
    );
    writeFileSync(
      join(root, '.dockerignore'),
      `${readFileSync(join(root, '.dockerignore'), 'utf8')}libs/errors\n`,
    );
    expect(checkDockerfiles(root)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^docker\/search\.Dockerfile:\d+: COPY source tsconfig\.missing\.json does not exist in the build context$/,
        ),
        expect.stringMatching(
          /^docker\/backend\.Dockerfile:\d+: COPY source libs\/errors\/package\.json is excluded by \.dockerignore$/,
        ),
      ]),
    );
  });

  it('fails without the health check or the build values', () => {
    edit(root, 'docker/backend.Dockerfile', /HEALTHCHECK [^\n]*\\\n[^\n]*\n/, '');
    edit(root, 'docker/backend.Dockerfile', 'ENV VERSION_TAG=${VERSION_TAG}', 'ENV TAG=${VERSION_TAG}');
    expect(checkDockerfiles(root)).toEqual([
      'docker/backend.Dockerfile: the final stage needs a HEALTHCHECK on /health/live',
      'docker/backend.Dockerfile: VERSION_TAG must be a build ARG passed to the process with ENV',
    ]);
  });
});

describe('docker/compose.yaml', () => {
  it('fails on what the compose specification does not allow', () => {
    edit(
      root,
      'docker/compose.yaml',
      'restart: unless-stopped',
      'restart: unless-stopped\n    helthcheck: {}',
    );
    expect(checkCompose(root)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /schema: \/services\/postgres must NOT have additional properties \(helthcheck\)/,
        ),
      ]),
    );
  });

  it('fails on an unpinned image, a missing dependency and a missing mount', () => {
    edit(root, 'docker/compose.yaml', 'axllent/mailpit:v1.27.7', 'axllent/mailpit');
    edit(
      root,
      'docker/compose.yaml',
      '      mailpit:\n        condition: service_healthy',
      '      smtp:\n        condition: service_healthy',
    );
    edit(root, 'docker/compose.yaml', './postgres/init-databases.sql', './postgres/missing.sql');
    expect(checkCompose(root)).toEqual([
      'docker/compose.yaml: service postgres: mounts ./postgres/missing.sql, which does not exist',
      'docker/compose.yaml: service mailpit: image axllent/mailpit has no tag (pin a version or a digest)',
      'docker/compose.yaml: service backend: depends on smtp, which is not a service',
      'docker/compose.yaml: service backend: waits for smtp to be healthy, but smtp has no healthcheck',
    ]);
  });
});

describe('GitHub workflows', () => {
  it('fails on what actionlint reports', async () => {
    edit(
      root,
      '.github/workflows/ci.yml',
      'node-version: ${{ matrix.node }}',
      'node-version: ${{ matrix.nodes }}',
    );
    expect(await checkWorkflows(root)).toEqual([
      expect.stringMatching(
        /^\.github\/workflows\/ci\.yml:\d+:\d+: property "nodes" is not defined .*\[expression\]$/,
      ),
    ]);
  });

  it('fails on an action pinned to a branch', async () => {
    edit(
      root,
      '.github/workflows/release.yml',
      'docker/setup-qemu-action@v3',
      'docker/setup-qemu-action@master',
    );
    expect(await checkWorkflows(root)).toEqual([
      '.github/workflows/release.yml: job publish: action docker/setup-qemu-action@master is pinned to master, which is neither a version tag nor a commit',
    ]);
  });
});
