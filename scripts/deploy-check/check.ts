import { checkCompose } from './compose';
import { checkDockerfiles } from './dockerfiles';
import { checkKubernetes } from './kubernetes';
import { checkMonitoring } from './monitoring';
import { checkWorkflows } from './workflows';

export interface SectionResult {
  section: string;
  problems: string[];
}

/** Every check of `pnpm check:deploy`, on the repository at `root`. */
export async function checkDeployment(root: string): Promise<SectionResult[]> {
  return [
    { section: 'kubernetes (k8s/overlays/*, kubectl kustomize)', problems: checkKubernetes(root) },
    {
      section: 'monitoring (ServiceMonitors, PrometheusRule with promtool, Grafana dashboards)',
      problems: checkMonitoring(root),
    },
    { section: 'dockerfiles (docker/*.Dockerfile, .dockerignore)', problems: checkDockerfiles(root) },
    { section: 'compose (docker/compose.yaml)', problems: checkCompose(root) },
    { section: 'workflows (.github/workflows, actionlint)', problems: await checkWorkflows(root) },
  ];
}
