import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { checkCompose } from './compose';
import { checkDockerfiles } from './dockerfiles';
import { checkKubernetes, renderedOverlayProblems } from './kubernetes';
import type { K8sObject } from './kubernetes';
import { headingAnchors, promtoolProblem, renderedMonitoringProblems, selectorsOf } from './monitoring';
import { checkWorkflows } from './workflows';
import { copyOfRepository, edit, repositoryRoot } from './repository-copy.spec-helper';

/**
 * The deployment check's own logic, with no tool (part of `pnpm test`): the rules of the Kubernetes
 * manifests and of their monitoring on a rendered overlay kept as a fixture
 * (fixtures/production-database.yaml, `kubectl kustomize` of that overlay), broken in memory; the
 * Dockerfiles, the compose file and the workflows on a copy of the repository. The same check with
 * kubectl and promtool on the repository itself: deploy-check.tools.spec.ts, in `pnpm check:deploy`.
 */
const FIXTURE = join(__dirname, 'fixtures', 'production-database.yaml');

/** A fresh copy of the rendered overlay's objects, for a test to break. */
function renderedOverlay(): K8sObject[] {
  return parseAllDocuments(readFileSync(FIXTURE, 'utf8'))
    .map((document) => document.toJS() as K8sObject | null)
    .filter((object): object is K8sObject => object !== null);
}

/** The object of that kind whose name is `name` (or starts with `name-`, for generated names). */
function objectOf(objects: K8sObject[], kind: string, name: string): K8sObject {
  const found = objects.find(
    (o) => o.kind === kind && (o.metadata?.name === name || o.metadata?.name?.startsWith(`${name}-`)),
  );
  if (!found) throw new Error(`the fixture has no ${kind}/${name}`);
  return found;
}

const containerOf = (objects: K8sObject[], name: string): K8sObject =>
  objectOf(objects, 'Deployment', name).spec.template.spec.containers[0];

/** The runbook sections of docs/observability.md, as the check reads them. */
const anchors = () => headingAnchors(readFileSync(join(repositoryRoot, 'docs/observability.md'), 'utf8'));

/** A PATH with no tool at all on it. */
function withEmptyPath<T>(work: () => T): T {
  const path = process.env.PATH;
  const empty = mkdtempSync(join(tmpdir(), 'no-tools-'));
  process.env.PATH = empty;
  try {
    return work();
  } finally {
    process.env.PATH = path;
    rmSync(empty, { recursive: true, force: true });
  }
}

describe('Kubernetes manifests (a rendered overlay)', () => {
  it('passes on the rendered overlay as it is', () => {
    expect(renderedOverlayProblems(renderedOverlay())).toEqual([]);
  });

  it('fails, never skips, when kubectl is not installed', () => {
    expect(withEmptyPath(() => checkKubernetes(repositoryRoot))).toEqual([
      expect.stringMatching(/kubectl is not installed.*install kubectl/),
    ]);
  });

  it('fails when a Deployment loses its readiness probe', () => {
    const objects = renderedOverlay();
    delete containerOf(objects, 'backend').readinessProbe;
    expect(renderedOverlayProblems(objects)).toEqual([
      'Deployment/backend container backend: readinessProbe must be an HTTP GET of /health/ready',
    ]);
  });

  it('fails on an object that does not match the schema of its kind', () => {
    const objects = renderedOverlay();
    objectOf(objects, 'Service', 'search').spec.ports[0].port = 'three-thousand-one';
    expect(renderedOverlayProblems(objects)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Service\/search: schema: \/spec\/ports\/0\/port must be integer/),
      ]),
    );
  });

  it('fails on a writable root filesystem, a missing limit and a latest tag', () => {
    const objects = renderedOverlay();
    const search = containerOf(objects, 'search');
    search.securityContext.readOnlyRootFilesystem = false;
    delete search.resources.limits.cpu;
    const backend = containerOf(objects, 'backend');
    backend.image = backend.image.replace(/:[^:/]+$/, ':latest');
    expect(renderedOverlayProblems(objects)).toEqual(
      expect.arrayContaining([
        'Deployment/search container search: readOnlyRootFilesystem is not true',
        'Deployment/search container search: has no cpu limit',
        expect.stringMatching(/^Deployment\/backend container backend: image .*:latest uses a "latest" tag/),
      ]),
    );
  });

  it('fails on a secret value in the manifests', () => {
    const objects = renderedOverlay();
    objectOf(objects, 'ConfigMap', 'backend-config').data.CONTRACT_ACCESS_TOKEN = 'x';
    containerOf(objects, 'search').env = [{ name: 'DATABASE_URL', value: 'postgres://u:p@db/search' }];
    expect(renderedOverlayProblems(objects)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^ConfigMap\/backend-config-\w+: CONTRACT_ACCESS_TOKEN is a secret/),
        'Deployment/search container search: DATABASE_URL is a secret written in the manifest (use a secretKeyRef)',
      ]),
    );
  });

  it('fails when a service has no migration Job', () => {
    const objects = renderedOverlay().filter(
      (o) => !(o.kind === 'Job' && o.metadata.name === 'search-migrate'),
    );
    expect(renderedOverlayProblems(objects)).toEqual([
      expect.stringMatching(
        /^search: no Job runs `node dist\/database\/migrate\.js` with the Deployment's image .*\/search:/,
      ),
    ]);
  });

  it('fails when the Ingress exposes the metrics or stops routing /img', () => {
    const objects = renderedOverlay();
    for (const rule of objectOf(objects, 'Ingress', 'road-trip').spec.rules) {
      for (const path of rule.http.paths) if (path.path === '/img') path.path = '/metrics';
    }
    expect(renderedOverlayProblems(objects)).toEqual(
      expect.arrayContaining([
        'the Ingress does not route /img to the backend',
        'the Ingress exposes /metrics of backend (metrics, health and reindex stay internal)',
      ]),
    );
  });

  it("validates the shape of the operator's kinds, which kubernetes-models does not know", () => {
    const objects = renderedOverlay();
    const endpoint = objectOf(objects, 'ServiceMonitor', 'backend').spec.endpoints[0];
    delete endpoint.port;
    endpoint.scheme = 'http';
    expect(renderedOverlayProblems(objects)).toEqual(
      expect.arrayContaining(['ServiceMonitor/backend: schema: /spec/endpoints/0 names no port']),
    );
  });
});

describe('the CloudNativePG component (k8s/components/database, rendered)', () => {
  it('fails on a misspelt field, a wrong enum and a missing required field of its kinds', () => {
    const objects = renderedOverlay();
    objectOf(objects, 'Pooler', 'road-trip-db-pooler-rw').spec.pgbouncer.poolMode = 'statement';
    const affinity = objectOf(objects, 'Cluster', 'road-trip-db').spec.affinity;
    affinity.enablePodAntiAfinity = affinity.enablePodAntiAffinity;
    delete affinity.enablePodAntiAffinity;
    delete objectOf(objects, 'ScheduledBackup', 'road-trip-db-nightly').spec.schedule;
    expect(renderedOverlayProblems(objects)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^Pooler\/road-trip-db-pooler-rw: schema: \/spec\/pgbouncer\/poolMode must be equal to one of the allowed values/,
        ),
        'Cluster/road-trip-db: schema: /spec/affinity must NOT have additional properties (enablePodAntiAfinity)',
        "ScheduledBackup/road-trip-db-nightly: schema: /spec must have required property 'schedule'",
      ]),
    );
  });

  it('fails on too few instances, an unpinned image, no scheduled backup and a reference to another cluster', () => {
    const objects = renderedOverlay().filter((o) => o.kind !== 'ScheduledBackup');
    const cluster = objectOf(objects, 'Cluster', 'road-trip-db');
    cluster.spec.instances = 1;
    cluster.spec.imageName = 'ghcr.io/cloudnative-pg/postgresql:latest';
    objectOf(objects, 'Pooler', 'road-trip-db-pooler-rw').spec.cluster.name = 'other-db';
    expect(renderedOverlayProblems(objects)).toEqual(
      expect.arrayContaining([
        'Cluster/road-trip-db: needs 3 instances (a primary and two replicas)',
        expect.stringMatching(/^Cluster\/road-trip-db: .*latest/),
        'Cluster/road-trip-db: no ScheduledBackup backs it up',
        'Pooler/road-trip-db-pooler-rw: refers to Cluster other-db, which the overlay does not define',
      ]),
    );
  });
});

describe('monitoring (ServiceMonitors, PrometheusRule, dashboards; rendered)', () => {
  it('passes on the rendered overlay as it is', () => {
    expect(renderedMonitoringProblems(repositoryRoot, renderedOverlay(), anchors())).toEqual([]);
  });

  it('fails, never skips, when promtool is not installed', () => {
    expect(withEmptyPath(() => promtoolProblem(repositoryRoot))).toMatch(
      /promtool is not installed.*Debian's `prometheus` package/,
    );
  });

  it('passes each PrometheusRule to the rule checker (promtool in pnpm check:deploy)', () => {
    const checked: string[] = [];
    const problems = renderedMonitoringProblems(repositoryRoot, renderedOverlay(), anchors(), (rule) => {
      checked.push(rule.metadata.name);
      return ['refused'];
    });
    expect({ checked, problems }).toEqual({ checked: ['road-trip'], problems: ['refused'] });
  });

  it('fails on an alert whose runbook section is missing or that has no severity', () => {
    const objects = renderedOverlay();
    const alerts = objectOf(objects, 'PrometheusRule', 'road-trip').spec.groups.flatMap(
      (group: K8sObject) => group.rules,
    );
    delete alerts.find((rule: K8sObject) => rule.alert === 'RoadTripEmbeddingCircuitOpen').labels.severity;
    const sections = anchors();
    sections.delete('roadtripembeddingcircuitopen');
    expect(renderedMonitoringProblems(repositoryRoot, objects, sections)).toEqual([
      'PrometheusRule/road-trip alert RoadTripEmbeddingCircuitOpen: severity must be one of critical, warning (critical pages, warning opens a ticket)',
      'PrometheusRule/road-trip alert RoadTripEmbeddingCircuitOpen: docs/observability.md has no section #roadtripembeddingcircuitopen',
    ]);
  });

  it('fails on a metric or a label that no service exports, in a rule or a dashboard', () => {
    const objects = renderedOverlay();
    const backlog = objectOf(objects, 'PrometheusRule', 'road-trip')
      .spec.groups.flatMap((group: K8sObject) => group.rules)
      .find((rule: K8sObject) => rule.alert === 'RoadTripOutboxBacklog');
    backlog.expr = backlog.expr.replace(
      'mail_outbox_messages{job="backend", state="pending"}',
      'mail_outbox_pending{job="backend"}',
    );
    const configMap = objectOf(objects, 'ConfigMap', 'road-trip-dashboard-search');
    configMap.data['search.json'] = configMap.data['search.json'].replace(
      'search_travels_requests_total{job=\\"search\\", namespace=\\"$namespace\\"}',
      'search_travels_requests_total{job=\\"search\\", kind=\\"x\\"}',
    );
    expect(renderedMonitoringProblems(repositoryRoot, objects, anchors())).toEqual([
      'PrometheusRule/road-trip RoadTripOutboxBacklog: uses the metric mail_outbox_pending, which neither service exports',
      'ConfigMap/road-trip-dashboard-search search.json panel "Listings by kind": matches search_travels_requests_total on the label kind, which it does not have',
    ]);
  });

  it('fails on a dashboard that is not JSON, a panel without a query and a service without a monitor', () => {
    const objects = renderedOverlay().filter(
      (o) => !(o.kind === 'ServiceMonitor' && o.metadata.name === 'search'),
    );
    const backend = objectOf(objects, 'ConfigMap', 'road-trip-dashboard-backend');
    backend.data['backend.json'] = backend.data['backend.json'].replace(/^\{/, '{,');
    const search = objectOf(objects, 'ConfigMap', 'road-trip-dashboard-search');
    const dashboard = JSON.parse(search.data['search.json']);
    dashboard.panels.find((p: { title?: string }) => p.title === 'Request rate by route').targets = [];
    search.data['search.json'] = JSON.stringify(dashboard);
    expect(renderedMonitoringProblems(repositoryRoot, objects, anchors())).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^ConfigMap\/road-trip-dashboard-backend backend\.json: not JSON/),
        'ConfigMap/road-trip-dashboard-search search.json panel "Request rate by route": has no query',
        'Service/search: no ServiceMonitor scrapes /metrics on one of its named ports',
        'no Grafana dashboard is tagged backend',
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

/** A fresh copy of the repository for each test of the describe that calls it, in `root`. */
let root: string;
function onACopyOfTheRepository(): void {
  beforeEach(() => {
    root = copyOfRepository();
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });
}

describe('Dockerfiles', () => {
  onACopyOfTheRepository();

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

  it("fails when an image misses a workspace manifest, or when an example's code may enter the context", () => {
    const example = 'examples/typed-client';
    edit(root, 'docker/backend.Dockerfile', `COPY ${example}/package.json ${example}/\n`, '');
    edit(root, '.dockerignore', 'examples/**\n', '');
    const entering = (file: string) =>
      `.dockerignore lets ${example}/${file} into the build context (the examples are never deployed)`;
    expect(checkDockerfiles(root)).toEqual([
      `docker/backend.Dockerfile: does not copy ${example}/package.json (pnpm install --frozen-lockfile needs every workspace manifest)`,
      entering('src/main.ts'),
      entering('tsconfig.json'),
    ]);
  });

  it('fails without the health check or the build values', () => {
    edit(root, 'docker/backend.Dockerfile', /HEALTHCHECK [^\n]*\\\n[^\n]*\n/, '');
    edit(root, 'docker/backend.Dockerfile', 'ENV VERSION_TAG=${VERSION_TAG}', 'ENV TAG=${VERSION_TAG}');
    expect(checkDockerfiles(root)).toEqual([
      'docker/backend.Dockerfile: the final stage needs a HEALTHCHECK on /health/live',
      'docker/backend.Dockerfile: VERSION_TAG must be a build ARG passed to the process with ENV',
    ]);
  });
  it('fails unless the final stage listens on every interface (ENV HOST=0.0.0.0)', () => {
    // No HOST at all: the service would listen on loopback, out of reach of the published port.
    edit(root, 'docker/backend.Dockerfile', '  HOST=0.0.0.0 \\\n', '');
    // Another address, and HOST=0.0.0.0 set only in the build stage, do not count either.
    edit(root, 'docker/search.Dockerfile', 'HOST=0.0.0.0', 'HOST=127.0.0.1');
    edit(root, 'docker/search.Dockerfile', 'WORKDIR /workspace', 'ENV HOST=0.0.0.0\nWORKDIR /workspace');
    expect(checkDockerfiles(root)).toEqual([
      'docker/backend.Dockerfile: the final stage must set ENV HOST=0.0.0.0, to listen on every interface (no HOST: loopback only)',
      'docker/search.Dockerfile: the final stage must set ENV HOST=0.0.0.0, to listen on every interface (HOST=127.0.0.1)',
    ]);
  });

  it('takes the last HOST of the final stage', () => {
    edit(root, 'docker/backend.Dockerfile', 'USER 1000:1000', 'USER 1000:1000\nENV HOST=::1');
    expect(checkDockerfiles(root)).toEqual([
      'docker/backend.Dockerfile: the final stage must set ENV HOST=0.0.0.0, to listen on every interface (HOST=::1)',
    ]);
  });
});

describe('docker/compose.yaml', () => {
  onACopyOfTheRepository();

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
  onACopyOfTheRepository();

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
