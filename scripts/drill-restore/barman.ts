// barman-cloud (Debian's `barman-cli-cloud`, the tool CloudNativePG's instances run): WAL archiving
// as archive_command, base backups, their restore and restore_command, against the drill's
// S3-compatible server on loopback (`--endpoint-url`, credentials in the AWS_* variables).
import type { RunAs } from '@rt/testing';
import { execFileSync } from 'node:child_process';
import { runCommand } from './postgres';

export const BARMAN_COMMANDS = [
  'barman-cloud-wal-archive',
  'barman-cloud-backup',
  'barman-cloud-backup-list',
  'barman-cloud-restore',
  'barman-cloud-wal-restore',
] as const;

/** Where the backups go: one bucket, one barman "server name" (CloudNativePG's: the Cluster's name). */
export interface BarmanStore {
  endpointUrl: string;
  /** `s3://bucket/` */
  destination: string;
  serverName: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** The variables boto3 reads (CloudNativePG sets the same from the Cluster's s3Credentials). */
export function barmanEnv(store: BarmanStore): Record<string, string> {
  return {
    AWS_ACCESS_KEY_ID: store.accessKeyId,
    AWS_SECRET_ACCESS_KEY: store.secretAccessKey,
    AWS_DEFAULT_REGION: 'us-east-1',
  };
}

/** archive_command: each finished WAL segment, gzip-compressed (cluster.yaml: `wal.compression: gzip`). */
export function archiveCommand(store: BarmanStore): string {
  return [
    'barman-cloud-wal-archive',
    '--endpoint-url',
    store.endpointUrl,
    '--gzip',
    store.destination,
    store.serverName,
    '%p',
  ].join(' ');
}

/** restore_command of the restored server: segments fetched from the bucket as recovery asks. */
export function restoreCommand(store: BarmanStore): string {
  return [
    'barman-cloud-wal-restore',
    '--endpoint-url',
    store.endpointUrl,
    store.destination,
    store.serverName,
    '%f',
    '%p',
  ].join(' ');
}

/** One entry of `barman-cloud-backup-list --format json`. */
export interface BarmanBackup {
  backup_id: string;
  status: string;
  begin_wal?: string;
  end_wal?: string;
  timeline?: number;
}

/**
 * The backup to restore: the newest finished one (ids are `YYYYMMDDTHHMMSS`, so they sort by time).
 * barman-cli-cloud 3.4 (Debian bookworm) has no `latest` keyword for barman-cloud-restore.
 */
export function newestBackup(listing: string): BarmanBackup {
  const parsed = JSON.parse(listing) as { backups_list?: BarmanBackup[] };
  const done = (parsed.backups_list ?? []).filter((backup) => backup.status === 'DONE');
  if (done.length === 0) throw new Error('barman-cloud-backup-list: no finished backup in the bucket');
  return [...done].sort((a, b) => a.backup_id.localeCompare(b.backup_id)).at(-1)!;
}

function onPath(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Installs barman-cli-cloud from Debian when a command is missing (as root, like `.ci/run` installs
 * chromium); returns its version line.
 */
export function ensureBarman(log: (line: string) => void): string {
  const missing = BARMAN_COMMANDS.filter((command) => !onPath(command));
  if (missing.length > 0) {
    if (process.getuid?.() !== 0) {
      throw new Error(
        `${missing.join(', ')} missing: install Debian's barman-cli-cloud (apt-get install barman-cli-cloud)`,
      );
    }
    log("installing Debian's barman-cli-cloud (barman-cloud-*, boto3)");
    const apt = { stdio: 'inherit' as const, env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } };
    try {
      execFileSync('apt-cache', ['show', 'barman-cli-cloud'], { stdio: 'ignore' });
    } catch {
      execFileSync('apt-get', ['update', '-q'], apt);
    }
    execFileSync('apt-get', ['install', '-y', '-q', '--no-install-recommends', 'barman-cli-cloud'], apt);
  }
  return execFileSync('barman-cloud-backup', ['--version'], { encoding: 'utf8' }).trim();
}

export class Barman {
  constructor(
    private readonly store: BarmanStore,
    private readonly runAs: RunAs | undefined,
  ) {}

  private run(command: string, args: string[]): Promise<string> {
    return runCommand(this.runAs, command, args, { env: barmanEnv(this.store), timeoutMs: 600_000 });
  }

  /** A base backup of the server on `port` (a concurrent backup, like CloudNativePG's). */
  async backup(port: number, name: string): Promise<void> {
    await this.run('barman-cloud-backup', [
      '--endpoint-url',
      this.store.endpointUrl,
      '--gzip',
      '--immediate-checkpoint',
      '--name',
      name,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--user',
      'postgres',
      this.store.destination,
      this.store.serverName,
    ]);
  }

  async newestBackup(): Promise<BarmanBackup> {
    return newestBackup(
      await this.run('barman-cloud-backup-list', [
        '--endpoint-url',
        this.store.endpointUrl,
        '--format',
        'json',
        this.store.destination,
        this.store.serverName,
      ]),
    );
  }

  /** Downloads and unpacks base backup `backupId` into `dataDir` (which must not exist yet). */
  async restore(backupId: string, dataDir: string): Promise<void> {
    await this.run('barman-cloud-restore', [
      '--endpoint-url',
      this.store.endpointUrl,
      this.store.destination,
      this.store.serverName,
      backupId,
      dataDir,
    ]);
  }
}
