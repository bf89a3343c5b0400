import { asRoot, exec, must, type Outcome } from './shell';

/**
 * podman as this machine runs it (k8s/README.md, "The release images"): chroot isolation for builds,
 * runc for containers (crun and the default isolation are refused with cgroups in hybrid mode),
 * bounded file and process limits. The one-off commands (migrations, create-admin) run on the
 * host's network (so they reach PostgreSQL at 127.0.0.1); the server runs on podman's bridge network
 * with its port published (SERVER_FLAGS), so that it is reached as a deployment reaches it.
 */
const LIMITS = ['--ulimit', 'nofile=1024:1024', '--ulimit', 'nproc=1024:1024'];
export const RUN_FLAGS = ['--network=host', ...LIMITS];
/** The bridge network (podman's default, named `podman`) that the server runs on. */
export const SERVER_NETWORK = 'podman';
export const SERVER_FLAGS = [`--network=${SERVER_NETWORK}`, ...LIMITS];

export function podman(args: string[], input?: string): Promise<Outcome> {
  const [command, rest] = asRoot('podman', ['--runtime', 'runc', ...args]);
  return exec(command, rest, { input });
}

export function mustPodman(args: string[]): Promise<string> {
  const [command, rest] = asRoot('podman', ['--runtime', 'runc', ...args]);
  return must(command, rest);
}

/** Builds a Dockerfile from the repository root (the build context), keeping its HEALTHCHECK (docker format). */
export function build(
  root: string,
  dockerfile: string,
  tag: string,
  buildArgs: Record<string, string>,
): Promise<Outcome> {
  return podman([
    'build',
    '--isolation=chroot',
    '--network=host',
    '--pull=never',
    '--format=docker',
    '--file',
    `${root}/${dockerfile}`,
    '--tag',
    tag,
    ...Object.entries(buildArgs).flatMap(([name, value]) => ['--build-arg', `${name}=${value}`]),
    root,
  ]);
}

export async function imageSize(image: string): Promise<number> {
  return Number((await mustPodman(['image', 'inspect', '--format', '{{.Size}}', image])).trim());
}
