import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { kubectlProblem, nameOf, overlayDirs, renderOverlay } from './kubernetes';
import type { K8sObject } from './kubernetes';
import { run } from './run';

/** Services that each need a ServiceMonitor and a dashboard. */
const SERVICES = ['backend', 'search'];

/** Where the alert rules and their promtool unit tests live. */
export const RULES_FILE = 'k8s/base/monitoring/prometheusrule.yaml';
export const RULE_TESTS_FILE = 'k8s/base/monitoring/alerts.test.yaml';
const RUNBOOKS_FILE = 'docs/observability.md';

/** Labels Prometheus adds to every series it scrapes through a ServiceMonitor. */
const TARGET_LABELS = ['job', 'namespace', 'pod', 'instance', 'service', 'endpoint', 'container'];

/**
 * Series that come from elsewhere than the services: Prometheus itself, and kube-state-metrics
 * (the nightly reindex runs in a CronJob's pods, which are not scraped).
 */
const EXTERNAL_METRICS: Record<string, string[]> = {
  up: [],
  kube_job_status_failed: ['job_name'],
  kube_job_owner: ['job_name', 'owner_kind', 'owner_name', 'owner_is_controller'],
  kube_cronjob_status_last_successful_time: ['cronjob'],
};

/** Metric name → the label names its series carry (target labels aside). */
export type MetricInventory = Map<string, Set<string>>;

const SEVERITIES = ['critical', 'warning'];

/** promtool, which checks and tests the rules: its absence is a failure, never a reason to skip. */
export function promtoolProblem(root: string): string | undefined {
  const version = run('promtool', ['--version'], root);
  if (!version.ok) {
    return `${version.error}: pnpm check:deploy checks the alert rules with \`promtool check rules\` and \`promtool test rules\`; install Debian's \`prometheus\` package (it ships promtool; .ci/run extracts it from the package)`;
  }
  return undefined;
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory())
      return name === 'node_modules' || name === 'dist' ? [] : sourceFiles(path);
    return /\.ts$/.test(name) && !/\.(e2e-)?spec\.ts$/.test(name) ? [path] : [];
  });
}

const PROM_CLIENT_METRIC =
  /new (Counter|Gauge|Histogram|Summary)\(\{\s*name: '([a-zA-Z_:][a-zA-Z0-9_:]*)'[\s\S]*?(?:labelNames: \[([^\]]*)\][\s\S]*?)?registers/g;

/**
 * What the services export: every prom-client metric their sources define (name and label names),
 * prom-client's default metrics (from the version the services use), the series from Prometheus and
 * kube-state-metrics the rules rely on, and the rules' own recorded series.
 */
export function metricInventory(
  root: string,
  recorded: Map<string, Set<string>> = new Map(),
): MetricInventory {
  const inventory: MetricInventory = new Map();
  const add = (name: string, labels: string[]) => inventory.set(name, new Set(labels));
  for (const top of ['apps', 'libs']) {
    const topDir = join(root, top);
    if (!existsSync(topDir)) continue;
    for (const pkg of readdirSync(topDir)) {
      for (const file of sourceFiles(join(topDir, pkg, 'src'))) {
        const text = readFileSync(file, 'utf8');
        if (!text.includes('prom-client')) continue;
        for (const [, type, name, labelList] of text.matchAll(PROM_CLIENT_METRIC)) {
          const labels = [...(labelList ?? '').matchAll(/'([a-zA-Z_]\w*)'/g)].map((m) => m[1]);
          if (type === 'Histogram') {
            add(`${name}_bucket`, [...labels, 'le']);
            add(`${name}_sum`, labels);
            add(`${name}_count`, labels);
          } else if (type === 'Summary') {
            add(name, [...labels, 'quantile']);
            add(`${name}_sum`, labels);
            add(`${name}_count`, labels);
          } else {
            add(name, labels);
          }
        }
      }
    }
  }
  for (const [name, labels] of defaultMetrics(root)) add(name, labels);
  for (const [name, labels] of Object.entries(EXTERNAL_METRICS)) add(name, labels);
  for (const [name, labels] of recorded) add(name, [...labels]);
  return inventory;
}

/** What the check reads of prom-client (the services' dependency, not this folder's). */
interface PromClient {
  Registry: new () => { getMetricsAsArray(): { name: string; type: string; labelNames?: string[] }[] };
  collectDefaultMetrics(options: { register: unknown }): void;
}

/** prom-client's default metrics, from the copy libs/platform depends on. */
function defaultMetrics(root: string): [string, string[]][] {
  let promClient: PromClient;
  try {
    // The repository checked, else this one (a copy under test has no node_modules).
    const paths = [root, join(__dirname, '..', '..'), join(__dirname, '..', '..', '..')].map((r) =>
      join(r, 'libs', 'platform'),
    );
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the services' own copy
    promClient = require(require.resolve('prom-client', { paths }));
  } catch {
    return [];
  }
  const registry = new promClient.Registry();
  promClient.collectDefaultMetrics({ register: registry });
  return registry.getMetricsAsArray().flatMap(({ name, type, labelNames = [] }): [string, string[]][] =>
    type === 'histogram'
      ? [
          [`${name}_bucket`, [...labelNames, 'le']],
          [`${name}_sum`, labelNames],
          [`${name}_count`, labelNames],
        ]
      : [[name, labelNames]],
  );
}

const PROMQL_WORDS = new Set([
  'and',
  'or',
  'unless',
  'bool',
  'offset',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'inf',
  'nan',
]);

/** The series selectors of a PromQL expression: metric names with the label names they match on. */
export function selectorsOf(expr: string): { metric: string; labels: string[] }[] {
  const text = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const selectors: { metric: string; labels: string[] }[] = [];
  const identifier = /(?<![\w.$])([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(\{[^}]*\})?(\s*\()?/g;
  for (const [, name, matchers, call] of text.matchAll(identifier)) {
    if (call && !matchers) continue; // a function
    if (PROMQL_WORDS.has(name.toLowerCase())) continue;
    const labels = [...(matchers ?? '').matchAll(/([a-zA-Z_]\w*)\s*(=~|!~|!=|=)/g)].map((m) => m[1]);
    selectors.push({ metric: name, labels });
  }
  return selectors;
}

/** A metric or label an expression uses that the services (or Prometheus) do not export. */
export function unknownSeriesProblems(expr: string, inventory: MetricInventory): string[] {
  const problems: string[] = [];
  for (const { metric, labels } of selectorsOf(expr)) {
    const known = inventory.get(metric);
    if (!known) {
      problems.push(`uses the metric ${metric}, which neither service exports`);
      continue;
    }
    for (const label of labels) {
      if (!known.has(label) && !TARGET_LABELS.includes(label))
        problems.push(`matches ${metric} on the label ${label}, which it does not have`);
    }
  }
  return problems;
}

/** GitHub's anchors of a Markdown file's headings. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const [, heading] of markdown.matchAll(/^#{1,6}\s+(.+)$/gm)) {
    anchors.add(
      heading
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-'),
    );
  }
  return anchors;
}

/** The recorded series of a rule file and the labels they keep (those of their `by`, or none). */
function recordedSeries(groups: K8sObject[]): Map<string, Set<string>> {
  const recorded = new Map<string, Set<string>>();
  for (const group of groups) {
    for (const rule of group.rules ?? []) {
      if (typeof rule.record !== 'string') continue;
      const by = /\bby\s*\(([^)]*)\)/.exec(String(rule.expr));
      const labels = (by?.[1] ?? '')
        .split(',')
        .map((l) => l.trim())
        .filter(Boolean);
      recorded.set(rule.record, new Set([...labels, ...Object.keys(rule.labels ?? {})]));
    }
  }
  return recorded;
}

/** promtool on a PrometheusRule's groups, written to a temporary rule file. */
function promtoolCheckProblems(rule: K8sObject): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'deploy-check-rules-'));
  try {
    const file = join(dir, 'rules.yaml');
    writeFileSync(file, stringify({ groups: rule.spec?.groups ?? [] }));
    const checked = run('promtool', ['check', 'rules', file], dir);
    if (checked.ok) return [];
    return [`${nameOf(rule)}: ${checked.error ?? ''}`.replace(new RegExp(dir, 'g'), '<rules>').trim()];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Alerts need a severity, a summary and a runbook section that exists. */
function alertProblems(rule: K8sObject, anchors: Set<string>): string[] {
  const problems: string[] = [];
  for (const group of rule.spec?.groups ?? []) {
    for (const alert of group.rules ?? []) {
      if (typeof alert.alert !== 'string') continue;
      const at = `${nameOf(rule)} alert ${alert.alert}`;
      if (!SEVERITIES.includes(alert.labels?.severity))
        problems.push(
          `${at}: severity must be one of ${SEVERITIES.join(', ')} (critical pages, warning opens a ticket)`,
        );
      if (!alert.annotations?.summary) problems.push(`${at}: has no summary`);
      const runbook = /^docs\/observability\.md#(.+)$/.exec(alert.annotations?.runbook_url ?? '');
      if (!runbook) problems.push(`${at}: runbook_url must point to a section of ${RUNBOOKS_FILE}`);
      else if (!anchors.has(runbook[1]))
        problems.push(`${at}: ${RUNBOOKS_FILE} has no section #${runbook[1]}`);
    }
  }
  return problems;
}

const matches = (selector: Record<string, string> | undefined, labels: Record<string, string>) =>
  !!selector &&
  Object.keys(selector).length > 0 &&
  Object.entries(selector).every(([k, v]) => labels[k] === v);

/** A ServiceMonitor per service, selecting its Service and scraping /metrics on one of its ports. */
function monitorProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const monitors = objects.filter((o) => o.kind === 'ServiceMonitor');
  for (const serviceName of SERVICES) {
    const service = objects.find((o) => o.kind === 'Service' && o.metadata?.name === serviceName);
    if (!service) continue; // the kubernetes section reports it
    const ports: string[] = (service.spec?.ports ?? []).map((p: K8sObject) => p.name);
    const scraping = monitors.filter(
      (m) =>
        matches(m.spec?.selector?.matchLabels, service.metadata?.labels ?? {}) &&
        (m.spec?.endpoints ?? []).some(
          (e: K8sObject) => ports.includes(e.port) && (e.path ?? '/metrics') === '/metrics',
        ),
    );
    if (scraping.length === 0)
      problems.push(`Service/${serviceName}: no ServiceMonitor scrapes /metrics on one of its named ports`);
    if (scraping.length > 1)
      problems.push(
        `Service/${serviceName}: scraped by ${scraping.length} ServiceMonitors (each series twice)`,
      );
  }
  return problems;
}

/** Grafana dashboards: ConfigMaps labelled grafana_dashboard, each key a dashboard's JSON. */
export function dashboardProblems(objects: K8sObject[], inventory: MetricInventory): string[] {
  const problems: string[] = [];
  const uids = new Map<string, string>();
  const tagged = new Set<string>();
  const configMaps = objects.filter(
    (o) => o.kind === 'ConfigMap' && o.metadata?.labels?.grafana_dashboard !== undefined,
  );
  for (const configMap of configMaps) {
    for (const [key, text] of Object.entries<string>(configMap.data ?? {})) {
      const at = `${nameOf(configMap)} ${key}`;
      let dashboard: K8sObject;
      try {
        dashboard = JSON.parse(text);
      } catch (error) {
        problems.push(`${at}: not JSON (${(error as Error).message})`);
        continue;
      }
      if (typeof dashboard.uid !== 'string' || dashboard.uid === '') problems.push(`${at}: has no uid`);
      else if (uids.has(dashboard.uid))
        problems.push(`${at}: uid ${dashboard.uid} is also the one of ${uids.get(dashboard.uid)}`);
      else uids.set(dashboard.uid, at);
      if (typeof dashboard.title !== 'string' || dashboard.title === '') problems.push(`${at}: has no title`);
      for (const tag of dashboard.tags ?? []) tagged.add(tag);
      const panels: K8sObject[] = Array.isArray(dashboard.panels) ? dashboard.panels : [];
      const graphs = panels
        .flatMap((p) => (p.type === 'row' ? (p.panels ?? []) : [p]))
        .filter((p) => p.type !== 'row' && p.type !== 'text');
      if (graphs.length === 0) problems.push(`${at}: has no panel`);
      const ids = new Set<number>();
      for (const panel of panels) {
        if (typeof panel.id !== 'number') problems.push(`${at}: a panel has no id`);
        else if (ids.has(panel.id)) problems.push(`${at}: two panels share the id ${panel.id}`);
        else ids.add(panel.id);
        if (!panel.gridPos) problems.push(`${at}: panel ${panel.title ?? panel.id} has no gridPos`);
      }
      for (const panel of graphs) {
        const where = `${at} panel "${panel.title ?? panel.id}"`;
        if (!panel.title) problems.push(`${at}: panel ${panel.id} has no title`);
        const targets: K8sObject[] = Array.isArray(panel.targets) ? panel.targets : [];
        if (targets.length === 0) problems.push(`${where}: has no query`);
        for (const target of targets) {
          if (typeof target.expr !== 'string' || target.expr.trim() === '') {
            problems.push(`${where}: query ${target.refId ?? '?'} has no expr`);
            continue;
          }
          for (const problem of unknownSeriesProblems(target.expr, inventory))
            problems.push(`${where}: ${problem}`);
        }
      }
    }
  }
  for (const service of SERVICES) {
    if (!tagged.has(service)) problems.push(`no Grafana dashboard is tagged ${service}`);
  }
  return problems;
}

/** `promtool test rules` on the alert rules with the unit tests beside them. */
export function ruleTestProblems(root: string): string[] {
  const rulesPath = join(root, RULES_FILE);
  const testsPath = join(root, RULE_TESTS_FILE);
  if (!existsSync(rulesPath)) return [`${RULES_FILE} is missing`];
  if (!existsSync(testsPath)) return [`${RULE_TESTS_FILE} is missing (promtool's unit tests of the alerts)`];
  const dir = mkdtempSync(join(tmpdir(), 'deploy-check-rule-tests-'));
  try {
    const rule = parse(readFileSync(rulesPath, 'utf8')) as K8sObject;
    // The tests name the rule file `rules.yaml`: the PrometheusRule's groups, as promtool reads them.
    writeFileSync(join(dir, 'rules.yaml'), stringify({ groups: rule?.spec?.groups ?? [] }));
    writeFileSync(join(dir, 'tests.yaml'), readFileSync(testsPath));
    const tested = run('promtool', ['test', 'rules', 'tests.yaml'], dir);
    if (tested.ok) return [];
    return [`${RULE_TESTS_FILE}: ${tested.stdout.trim()} ${tested.error ?? ''}`.trim()];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Renders every overlay and checks its monitoring: a ServiceMonitor per service, the rules (promtool,
 * severities, runbooks, series that exist), the dashboards; then runs the rules' unit tests.
 */
export function checkMonitoring(root: string): string[] {
  const missing = kubectlProblem(root) ?? promtoolProblem(root);
  if (missing) return [missing];
  const runbooks = join(root, RUNBOOKS_FILE);
  const anchors = existsSync(runbooks) ? headingAnchors(readFileSync(runbooks, 'utf8')) : new Set<string>();
  const problems: string[] = [];
  for (const overlay of overlayDirs(root)) {
    const { objects, problems: renderProblems } = renderOverlay(root, overlay);
    if (renderProblems.length > 0) continue; // the kubernetes section reports them
    const overlayProblems = renderedMonitoringProblems(root, objects, anchors, promtoolCheckProblems);
    problems.push(...overlayProblems.map((p) => `${overlay}: ${p}`));
  }
  problems.push(...ruleTestProblems(root));
  return problems;
}

/**
 * The monitoring of one rendered overlay: a ServiceMonitor per service, the rules (`checkRules`,
 * which is promtool in `checkMonitoring`; severities, runbooks, series that exist), the dashboards.
 * `root` is where the services' sources are read (the metrics they define).
 */
export function renderedMonitoringProblems(
  root: string,
  objects: K8sObject[],
  anchors: Set<string>,
  checkRules: (rule: K8sObject) => string[] = () => [],
): string[] {
  const problems: string[] = [...monitorProblems(objects)];
  const rules = objects.filter((o) => o.kind === 'PrometheusRule');
  if (rules.length === 0) problems.push('no PrometheusRule (the alerts)');
  const inventory = metricInventory(root, recordedSeries(rules.flatMap((r) => r.spec?.groups ?? [])));
  for (const rule of rules) {
    problems.push(...checkRules(rule), ...alertProblems(rule, anchors));
    for (const group of rule.spec?.groups ?? []) {
      for (const entry of group.rules ?? []) {
        for (const problem of unknownSeriesProblems(String(entry.expr ?? ''), inventory))
          problems.push(`${nameOf(rule)} ${entry.alert ?? entry.record}: ${problem}`);
      }
    }
  }
  problems.push(...dashboardProblems(objects, inventory));
  return problems;
}
