// The drill's figures (RPO, RTO, run time) and the pure helpers behind them.
import { parseArgs } from 'node:util';

export interface DrillOptions {
  /** What recovery stops at: the named restore point, or the time noted with it. */
  target: 'name' | 'time';
  /** archive_timeout of the drill's server: a segment is archived at most this long after a write. */
  archiveTimeoutSeconds: number;
  /** Keep the temporary folder (server logs, service logs, the bucket's files). */
  keep: boolean;
}

export const USAGE = `Usage: pnpm drill:restore [-- options]

A backup-and-restore drill on a PostgreSQL server of its own (initdb in a temporary folder, a free
loopback port): WAL archived and a base backup taken with barman-cloud to an S3-compatible server
on loopback (s3rver); both services migrate and write through their APIs; a restore point; a
deletion and more writes; then a point-in-time restore into a new data directory, both services
started on it, and every table of both databases compared (count and md5) with the restore point.
Prints RPO and RTO. Installs Debian's barman-cli-cloud when missing (as root).

  --target name|time      recovery_target_name (default) or recovery_target_time
  --archive-timeout <s>   archive_timeout of the drill's server (default 10)
  --keep                  keep the temporary folder (logs, the bucket's files)`;

export function parseOptions(argv: string[]): DrillOptions | 'help' {
  const { values } = parseArgs({
    args: argv.filter((arg, index) => !(index === 0 && arg === '--')),
    options: {
      target: { type: 'string', default: 'name' },
      'archive-timeout': { type: 'string', default: '10' },
      keep: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return 'help';
  if (values.target !== 'name' && values.target !== 'time') {
    throw new Error(`--target: expected name or time, got "${values.target}"`);
  }
  const timeout = values['archive-timeout'];
  if (!/^\d+$/.test(timeout) || Number(timeout) < 1 || Number(timeout) > 3600) {
    throw new Error(`--archive-timeout: expected whole seconds from 1 to 3600, got "${timeout}"`);
  }
  return { target: values.target, archiveTimeoutSeconds: Number(timeout), keep: values.keep };
}

const WAL_SEGMENT = /^[0-9A-F]{24}$/;

/**
 * Whether `lastArchived` (pg_stat_archiver.last_archived_wal) covers the segment `walFile`: both
 * plain segment names of one timeline compare as text. A `.history` or `.backup` file answers false
 * (the next segment archived decides).
 */
export function archivedThrough(lastArchived: string | null, walFile: string): boolean {
  if (!lastArchived || !WAL_SEGMENT.test(lastArchived) || !WAL_SEGMENT.test(walFile)) return false;
  if (lastArchived.slice(0, 8) !== walFile.slice(0, 8)) return lastArchived.slice(0, 8) > walFile.slice(0, 8);
  return lastArchived >= walFile;
}

export interface DrillFigures {
  target: string;
  archiveTimeoutSeconds: number;
  /** From the last write's commit to its segment in the bucket (archive_timeout's switch + upload). */
  lastWriteArchivedSeconds: number;
  /** What the base backup took (barman-cloud-backup). */
  backupSeconds: number;
  /** WAL segments the restored server fetched from the bucket. */
  segmentsRestored: number;
  rto: {
    fetchSeconds: number;
    replaySeconds: number;
    servicesSeconds: number;
    totalSeconds: number;
  };
  verifySeconds: number;
  tables: number;
  rows: number;
  runSeconds: number;
}

const s = (seconds: number) => `${seconds.toFixed(1)} s`;

export function formatFigures(f: DrillFigures): string[] {
  return [
    `target: ${f.target}`,
    `RPO: a commit reached the bucket ${s(f.lastWriteArchivedSeconds)} after it was written ` +
      `(archive_timeout ${f.archiveTimeoutSeconds} s plus the upload); a loss of the primary loses at most ` +
      `the writes of the segment not yet archived: RPO ≤ archive_timeout + one upload`,
    `RTO: ${s(f.rto.totalSeconds)} = base backup fetched and unpacked ${s(f.rto.fetchSeconds)} + ` +
      `WAL replayed to the target and promoted ${s(f.rto.replaySeconds)} (${f.segmentsRestored} segments from the bucket) + ` +
      `both services ready ${s(f.rto.servicesSeconds)}`,
    `verified: ${f.tables} tables, ${f.rows} rows equal to the restore point (${s(f.verifySeconds)}, not in the RTO)`,
    `base backup (barman-cloud-backup): ${s(f.backupSeconds)}; whole drill: ${s(f.runSeconds)}`,
  ];
}

/** WAL segments a restored server's log says it fetched with restore_command. */
export function restoredSegments(serverLog: string): number {
  return [...serverLog.matchAll(/restored log file "([0-9A-F]{24})" from archive/g)].length;
}
