// What a tool's run leaves behind until it ends (`pnpm load`, `pnpm drill:restore`): its
// temporary folder and the services it started, undone on every exit path.
import { existsSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { stopService, type ServiceChild } from './service-process';

export interface OwnResources {
  /** Undoes what else the tool made (databases, servers), after the services stop; never throws. */
  release?: () => Promise<void>;
  /** The same at once, synchronously, when the process exits without the cleanup. */
  releaseNow?: () => void;
}

/**
 * The run's temporary folder (`workDir`, removed unless `keep`) and its services. `cleanup()`
 * stops the services, then releases the tool's own resources, then removes the folder (or says it
 * is kept), once however often it is called. When the process exits without it (a second Ctrl-C,
 * `process.exit`), a last resort kills the services, releases the rest at once and removes the
 * folder.
 */
export class RunResources<Service extends ServiceChild = ServiceChild> {
  workDir?: string;
  keep = false;
  services: Service[] = [];
  private cleaning?: Promise<void>;

  constructor(
    private readonly log: (line: string) => void,
    private readonly own: OwnResources = {},
  ) {
    process.on('exit', () => this.lastResort());
  }

  cleanup(): Promise<void> {
    this.cleaning ??= (async () => {
      await Promise.all(this.services.map((service) => stopService(service).catch(() => undefined)));
      await this.own.release?.();
      if (this.workDir) {
        if (this.keep) this.log(`kept ${this.workDir}`);
        else await rm(this.workDir, { recursive: true, force: true }).catch(() => undefined);
      }
    })();
    return this.cleaning;
  }

  private lastResort(): void {
    for (const { child } of this.services)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    this.own.releaseNow?.();
    if (this.workDir && !this.keep && existsSync(this.workDir))
      rmSync(this.workDir, { recursive: true, force: true });
  }
}
