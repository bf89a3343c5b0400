import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { cnpgProblems, cnpgSchemaProblems } from './cloudnative-pg';
import { imagePinProblem } from './images';
import { run } from './run';

/* eslint-disable @typescript-eslint/no-explicit-any -- rendered manifests are untyped YAML */
export type K8sObject = Record<string, any>;

/** Variables whose value is a secret: they may only come from a Secret, never from a manifest. */
const SECRET_NAME = /(^DATABASE(_READ)?_URL$|^SMTP_URL$|TOKEN|PASSWORD|SECRET|_KEY$|_KEY_ID$|_SALT$)/;

/** Services whose Deployments must be there, each with its migration Job. */
const SERVICES = ['backend', 'search'];

/** The kubectl that renders the overlays: its absence is a failure, never a reason to skip. */
export function kubectlProblem(root: string): string | undefined {
  const version = run('kubectl', ['version', '--client'], root);
  if (!version.ok) {
    return `${version.error}: pnpm check:deploy renders k8s/overlays/* with \`kubectl kustomize\`; install kubectl (it includes kustomize)`;
  }
  return undefined;
}

export function overlayDirs(root: string): string[] {
  const overlays = join(root, 'k8s', 'overlays');
  if (!existsSync(overlays)) return [];
  return readdirSync(overlays)
    .filter((name) => statSync(join(overlays, name)).isDirectory())
    .sort()
    .map((name) => join('k8s', 'overlays', name));
}

/** `kubectl kustomize <overlay>` parsed into objects. */
export function renderOverlay(root: string, overlay: string): { objects: K8sObject[]; problems: string[] } {
  const rendered = run('kubectl', ['kustomize', overlay], root);
  if (!rendered.ok) return { objects: [], problems: [`${overlay}: ${rendered.error}`] };
  const problems: string[] = [];
  const objects: K8sObject[] = [];
  for (const document of parseAllDocuments(rendered.stdout)) {
    if (document.errors.length > 0) problems.push(`${overlay}: ${document.errors[0].message}`);
    const object = document.toJS() as K8sObject | null;
    if (object) objects.push(object);
  }
  return { objects, problems };
}

/**
 * The Prometheus Operator's kinds (monitoring.coreos.com/v1) are not in kubernetes-models: their
 * shape is checked here, minimally (what the operator needs to act on them).
 */
export function monitoringShapeProblems(object: K8sObject): string[] | undefined {
  if (object.apiVersion !== 'monitoring.coreos.com/v1') return undefined;
  const problems: string[] = [];
  if (typeof object.metadata?.name !== 'string') problems.push('schema: /metadata/name is required');
  const spec = object.spec;
  if (object.kind === 'ServiceMonitor' || object.kind === 'PodMonitor') {
    const endpointsKey = object.kind === 'ServiceMonitor' ? 'endpoints' : 'podMetricsEndpoints';
    if (typeof spec?.selector !== 'object' || spec.selector === null)
      problems.push('schema: /spec/selector must be object');
    const endpoints = spec?.[endpointsKey];
    if (!Array.isArray(endpoints) || endpoints.length === 0) {
      problems.push(`schema: /spec/${endpointsKey} must be a non-empty array`);
    } else {
      endpoints.forEach((endpoint: K8sObject, i: number) => {
        if (typeof endpoint?.port !== 'string' && endpoint?.targetPort === undefined)
          problems.push(`schema: /spec/${endpointsKey}/${i} names no port`);
      });
    }
  } else if (object.kind === 'PrometheusRule') {
    const groups = spec?.groups;
    if (!Array.isArray(groups) || groups.length === 0) {
      problems.push('schema: /spec/groups must be a non-empty array');
    } else {
      groups.forEach((group: K8sObject, g: number) => {
        if (typeof group?.name !== 'string') problems.push(`schema: /spec/groups/${g}/name is required`);
        if (!Array.isArray(group?.rules)) problems.push(`schema: /spec/groups/${g}/rules must be array`);
        (Array.isArray(group?.rules) ? group.rules : []).forEach((rule: K8sObject, r: number) => {
          const at = `/spec/groups/${g}/rules/${r}`;
          if ((typeof rule?.alert === 'string') === (typeof rule?.record === 'string'))
            problems.push(`schema: ${at} needs either alert or record`);
          if (typeof rule?.expr !== 'string' || rule.expr.trim() === '')
            problems.push(`schema: ${at}/expr must be a non-empty string`);
        });
      });
    }
  } else {
    problems.push(`monitoring.coreos.com/v1 ${String(object.kind)} is not a kind this check knows`);
  }
  return problems;
}

/** Validates an object against the schema of its apiVersion and kind (kubernetes-models). */
export function schemaProblems(object: K8sObject): string[] {
  const { apiVersion, kind } = object;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return ['has no apiVersion or kind'];
  const monitoring = monitoringShapeProblems(object);
  if (monitoring) return monitoring;
  const database = cnpgSchemaProblems(object);
  if (database) return database;
  let model: { new (data: unknown): { validate(): void } } | undefined;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- one module per kind
    model = require(`kubernetes-models/${apiVersion}/${kind}`)[kind];
  } catch {
    model = undefined;
  }
  if (!model) return [`${apiVersion} ${kind} is not a kind of the Kubernetes API`];
  try {
    new model(object).validate();
    return [];
  } catch (error) {
    const errors = (error as { errors?: { instancePath: string; message?: string }[] }).errors;
    if (!errors) return [(error as Error).message];
    return errors.map((e) => `schema: ${e.instancePath || '/'} ${e.message ?? ''}`.trim());
  }
}

export const nameOf = (object: K8sObject) => `${object.kind}/${object.metadata?.name ?? '?'}`;

function podSpecOf(object: K8sObject): K8sObject | undefined {
  if (['Deployment', 'StatefulSet', 'DaemonSet', 'Job'].includes(object.kind))
    return object.spec?.template?.spec;
  if (object.kind === 'CronJob') return object.spec?.jobTemplate?.spec?.template?.spec;
  if (object.kind === 'Pod') return object.spec;
  return undefined;
}

function podLabelsOf(object: K8sObject): Record<string, string> {
  if (object.kind === 'CronJob') return object.spec?.jobTemplate?.spec?.template?.metadata?.labels ?? {};
  return object.spec?.template?.metadata?.labels ?? {};
}

const matches = (selector: Record<string, string> | undefined, labels: Record<string, string>) =>
  !!selector &&
  Object.keys(selector).length > 0 &&
  Object.entries(selector).every(([k, v]) => labels[k] === v);

function probePath(probe: K8sObject | undefined): string | undefined {
  return probe?.httpGet?.path;
}

/** Security, resources, images and a writable /tmp, for every container of a pod. */
function podProblems(object: K8sObject, pod: K8sObject): string[] {
  const problems: string[] = [];
  const where = nameOf(object);
  const podSecurity = pod.securityContext ?? {};
  if (pod.hostNetwork || pod.hostPID || pod.hostIPC) problems.push(`${where}: shares a host namespace`);
  const tmpVolumes = new Set(
    (pod.volumes ?? []).filter((v: K8sObject) => v.emptyDir !== undefined).map((v: K8sObject) => v.name),
  );
  const containers: K8sObject[] = [...(pod.initContainers ?? []), ...(pod.containers ?? [])];
  if (containers.length === 0) problems.push(`${where}: has no container`);
  for (const container of containers) {
    const at = `${where} container ${container.name}`;
    const pin = imagePinProblem(container.image);
    if (pin) problems.push(`${at}: ${pin}`);
    const security = container.securityContext ?? {};
    if ((security.runAsNonRoot ?? podSecurity.runAsNonRoot) !== true)
      problems.push(`${at}: runAsNonRoot is not true`);
    if ((security.runAsUser ?? podSecurity.runAsUser) === 0) problems.push(`${at}: runs as user 0`);
    if (security.privileged === true) problems.push(`${at}: is privileged`);
    if (security.allowPrivilegeEscalation !== false)
      problems.push(`${at}: allowPrivilegeEscalation is not false`);
    if (security.readOnlyRootFilesystem !== true) problems.push(`${at}: readOnlyRootFilesystem is not true`);
    const dropped: string[] = security.capabilities?.drop ?? [];
    if (!dropped.includes('ALL')) problems.push(`${at}: does not drop ALL capabilities`);
    if ((security.capabilities?.add ?? []).length > 0) problems.push(`${at}: adds capabilities`);
    const tmp = (container.volumeMounts ?? []).find((m: K8sObject) => m.mountPath === '/tmp');
    if (!tmp || !tmpVolumes.has(tmp.name))
      problems.push(`${at}: has no writable /tmp (an emptyDir mounted there)`);
    for (const kind of ['requests', 'limits']) {
      for (const resource of ['cpu', 'memory']) {
        if (container.resources?.[kind]?.[resource] === undefined) {
          problems.push(`${at}: has no ${resource} ${kind.replace(/s$/, '')}`);
        }
      }
    }
    for (const variable of container.env ?? []) {
      if (SECRET_NAME.test(variable.name) && variable.value !== undefined) {
        problems.push(`${at}: ${variable.name} is a secret written in the manifest (use a secretKeyRef)`);
      }
    }
  }
  return problems;
}

function serverProblems(deployment: K8sObject): string[] {
  const problems: string[] = [];
  for (const container of deployment.spec?.template?.spec?.containers ?? []) {
    const at = `${nameOf(deployment)} container ${container.name}`;
    if (probePath(container.readinessProbe) !== '/health/ready') {
      problems.push(`${at}: readinessProbe must be an HTTP GET of /health/ready`);
    }
    if (probePath(container.livenessProbe) !== '/health/live') {
      problems.push(`${at}: livenessProbe must be an HTTP GET of /health/live`);
    }
    if (!container.startupProbe) problems.push(`${at}: has no startupProbe`);
  }
  return problems;
}

/** Every rule the manifests of one rendered overlay must follow, beside the schemas. */
export function invariantProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const byKind = (kind: string) => objects.filter((o) => o.kind === kind);
  const namespaces = new Set(objects.filter((o) => o.kind !== 'Namespace').map((o) => o.metadata?.namespace));
  if (namespaces.size !== 1 || namespaces.has(undefined)) {
    problems.push(`objects must all share one namespace (found: ${[...namespaces].join(', ') || 'none'})`);
  }
  for (const object of objects) {
    if (object.kind === 'Secret')
      problems.push(`${nameOf(object)}: secrets are created outside the repository`);
    if (object.kind === 'ConfigMap') {
      for (const key of Object.keys(object.data ?? {})) {
        if (SECRET_NAME.test(key))
          problems.push(`${nameOf(object)}: ${key} is a secret (put it in the Secret)`);
      }
    }
    const pod = podSpecOf(object);
    if (pod) problems.push(...podProblems(object, pod));
  }
  const deployments = byKind('Deployment');
  const jobs = byKind('Job');
  for (const service of SERVICES) {
    const deployment = deployments.find((d) => d.metadata?.name === service);
    if (!deployment) {
      problems.push(`Deployment/${service} is missing`);
      continue;
    }
    const image = deployment.spec?.template?.spec?.containers?.[0]?.image;
    const migrates = jobs.some((job) =>
      (job.spec?.template?.spec?.containers ?? []).some(
        (c: K8sObject) =>
          c.image === image &&
          [...(c.command ?? []), ...(c.args ?? [])].join(' ').includes('dist/database/migrate.js'),
      ),
    );
    if (!migrates) {
      problems.push(
        `${service}: no Job runs \`node dist/database/migrate.js\` with the Deployment's image ${image}`,
      );
    }
  }
  for (const deployment of deployments) {
    problems.push(...serverProblems(deployment));
    const name = deployment.metadata?.name;
    const labels = podLabelsOf(deployment);
    const ports: K8sObject[] = deployment.spec?.template?.spec?.containers?.flatMap(
      (c: K8sObject) => c.ports ?? [],
    );
    const services = byKind('Service').filter((s) => matches(s.spec?.selector, labels));
    if (services.length === 0) problems.push(`${nameOf(deployment)}: no Service selects its pods`);
    for (const service of services) {
      for (const port of service.spec?.ports ?? []) {
        const target = port.targetPort ?? port.port;
        if (!ports.some((p) => p.name === target || p.containerPort === target)) {
          problems.push(`${nameOf(service)}: targetPort ${target} is not a port of ${nameOf(deployment)}`);
        }
      }
    }
    if (!byKind('PodDisruptionBudget').some((p) => matches(p.spec?.selector?.matchLabels, labels))) {
      problems.push(`${nameOf(deployment)}: no PodDisruptionBudget selects its pods`);
    }
    if (
      !byKind('HorizontalPodAutoscaler').some(
        (h) => h.spec?.scaleTargetRef?.kind === 'Deployment' && h.spec?.scaleTargetRef?.name === name,
      )
    ) {
      problems.push(`${nameOf(deployment)}: no HorizontalPodAutoscaler scales it`);
    }
    // Migrations run in the Job, once per release: the servers never migrate at start-up.
    for (const ref of deployment.spec?.template?.spec?.containers?.[0]?.envFrom ?? []) {
      const configMap = byKind('ConfigMap').find((c) => c.metadata?.name === ref.configMapRef?.name);
      if (configMap?.data?.DB_MIGRATE_ON_START === 'true') {
        problems.push(`${nameOf(deployment)}: DB_MIGRATE_ON_START is true (the migration Job runs them)`);
      }
    }
  }
  for (const object of objects) {
    for (const ref of [
      ...(podSpecOf(object)?.containers ?? []).flatMap((c: K8sObject) => c.envFrom ?? []),
      ...(podSpecOf(object)?.volumes ?? []),
    ]) {
      const name = ref.configMapRef?.name ?? ref.configMap?.name;
      if (name && !objects.some((o) => o.kind === 'ConfigMap' && o.metadata?.name === name)) {
        problems.push(`${nameOf(object)}: refers to ConfigMap ${name}, which the overlay does not define`);
      }
    }
  }
  if (
    byKind('HorizontalPodAutoscaler').some(
      (h) => !deployments.some((d) => d.metadata?.name === h.spec?.scaleTargetRef?.name),
    )
  ) {
    problems.push('a HorizontalPodAutoscaler scales a Deployment that does not exist');
  }
  problems.push(...ingressProblems(objects));
  problems.push(...cnpgProblems(objects));
  const policies = byKind('NetworkPolicy');
  if (
    !policies.some(
      (p) =>
        Object.keys(p.spec?.podSelector ?? {}).length === 0 &&
        !p.spec?.ingress &&
        (p.spec?.policyTypes ?? []).includes('Ingress'),
    )
  ) {
    problems.push('no NetworkPolicy denies ingress to every pod by default');
  }
  for (const deployment of deployments) {
    const labels = podLabelsOf(deployment);
    const allowed = policies.some(
      (p) => matches(p.spec?.podSelector?.matchLabels, labels) && (p.spec?.ingress ?? []).length > 0,
    );
    if (!allowed) problems.push(`${nameOf(deployment)}: no NetworkPolicy lets traffic reach its pods`);
  }
  return problems;
}

function ingressProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const routes: { path: string; service: string }[] = [];
  for (const ingress of objects.filter((o) => o.kind === 'Ingress')) {
    for (const rule of ingress.spec?.rules ?? []) {
      for (const path of rule.http?.paths ?? []) {
        const service = path.backend?.service?.name;
        routes.push({ path: path.path, service });
        if (!objects.some((o) => o.kind === 'Service' && o.metadata?.name === service)) {
          problems.push(
            `${nameOf(ingress)}: routes ${path.path} to Service ${service}, which does not exist`,
          );
        }
      }
    }
  }
  for (const path of ['/api', '/img']) {
    if (!routes.some((r) => r.path === path && r.service === 'backend')) {
      problems.push(`the Ingress does not route ${path} to the backend`);
    }
  }
  if (!routes.some((r) => r.service === 'search'))
    problems.push('the Ingress does not route to the search service');
  for (const route of routes) {
    if (
      /^\/(metrics|reindex|health)/.test(route.path) ||
      (route.path === '/' && route.service === 'backend')
    ) {
      problems.push(
        `the Ingress exposes ${route.path} of ${route.service} (metrics, health and reindex stay internal)`,
      );
    }
  }
  return problems;
}

/** Renders every overlay and checks each object: its schema, then the invariants of the overlay. */
export function checkKubernetes(root: string): string[] {
  const missing = kubectlProblem(root);
  if (missing) return [missing];
  const overlays = overlayDirs(root);
  if (overlays.length === 0) return ['k8s/overlays has no overlay'];
  const problems: string[] = [];
  for (const overlay of overlays) {
    const { objects, problems: renderProblems } = renderOverlay(root, overlay);
    problems.push(...renderProblems);
    if (renderProblems.length > 0) continue;
    for (const problem of renderedOverlayProblems(objects)) problems.push(`${overlay}: ${problem}`);
  }
  return problems;
}

/** The objects of one rendered overlay: each against its schema, then the overlay's invariants. */
export function renderedOverlayProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  for (const object of objects) {
    for (const problem of schemaProblems(object)) problems.push(`${nameOf(object)}: ${problem}`);
  }
  problems.push(...invariantProblems(objects));
  return problems;
}
