import { archiveCommand, newestBackup, restoreCommand, type BarmanStore } from './barman';
import { catalogueVersions, fromNdjson, toNdjson, type CatalogueRecord } from './catalogue';
import { archivedThrough, formatFigures, parseOptions, restoredSegments } from './figures';
import { settingLine } from './postgres';
import {
  compareSnapshots,
  describeDifference,
  quoteIdent,
  tableChecksumSql,
  type Snapshot,
} from './snapshot';

const sum = (rows: number, md5: string, unlogged = false) => ({ rows, md5, unlogged });

describe('compareSnapshots', () => {
  const point: Snapshot = {
    backend: { 'public.tags': sum(6, 'aaa'), 'public.tours': sum(2, 'bbb') },
    search: { 'public.travel_offers': sum(320, 'ccc'), 'public.travel_offers_staging': sum(5, 'ddd', true) },
  };

  it('counts equal tables and rows', () => {
    const result = compareSnapshots(point, structuredClone(point), { afterRecovery: true });
    expect(result).toMatchObject({ databases: 2, tables: 4, rows: 333, equal: 4, differences: [] });
  });

  it('reports a changed checksum with the same count (an update)', () => {
    const restored = structuredClone(point);
    restored.backend['public.tags'] = sum(6, 'zzz');
    const { differences, equal } = compareSnapshots(point, restored, { afterRecovery: true });
    expect(equal).toBe(3);
    expect(differences).toEqual([
      { database: 'backend', table: 'public.tags', expected: sum(6, 'aaa'), actual: sum(6, 'zzz') },
    ]);
    expect(describeDifference(differences[0])).toBe(
      'backend.public.tags: expected 6 rows, md5 aaa, found 6 rows, md5 zzz',
    );
  });

  it('reports rows lost, a table missing, a table or a database too many', () => {
    const restored = structuredClone(point);
    restored.search['public.travel_offers'] = sum(256, 'eee');
    delete restored.backend['public.tours'];
    restored.backend['public.extra'] = sum(1, 'fff');
    restored.other = { 'public.x': sum(0, 'ggg') };
    const { differences, tables } = compareSnapshots(point, restored, { afterRecovery: true });
    expect(tables).toBe(4);
    expect(differences.map((d) => `${d.database}.${d.table}`)).toEqual([
      'backend.public.extra',
      'backend.public.tours',
      'other.public.x',
      'search.public.travel_offers',
    ]);
    expect(describeDifference(differences[1])).toContain('found missing');
  });

  it('accepts an unlogged table emptied by recovery only after a recovery', () => {
    const restored = structuredClone(point);
    restored.search['public.travel_offers_staging'] = sum(0, 'd41d8cd98f00b204e9800998ecf8427e', true);
    expect(compareSnapshots(point, restored, { afterRecovery: true })).toMatchObject({
      unloggedEmptied: ['search.public.travel_offers_staging'],
      differences: [],
    });
    expect(compareSnapshots(point, restored, { afterRecovery: false }).differences).toHaveLength(1);
    restored.search['public.travel_offers_staging'] = sum(1, 'x', true);
    expect(compareSnapshots(point, restored, { afterRecovery: true }).differences).toHaveLength(1);
  });
});

describe('the checksum SQL', () => {
  it('quotes identifiers and reads only the table itself', () => {
    expect(quoteIdent('we"ird')).toBe('"we""ird"');
    expect(tableChecksumSql('public', 'tags')).toBe(
      `SELECT count(*)::bigint AS rows, md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '')) AS md5 FROM ONLY "public"."tags" AS t`,
    );
  });
});

describe('archivedThrough', () => {
  it('compares segment names of one timeline', () => {
    expect(archivedThrough('000000010000000000000005', '000000010000000000000005')).toBe(true);
    expect(archivedThrough('000000010000000000000006', '000000010000000000000005')).toBe(true);
    expect(archivedThrough('000000010000000000000004', '000000010000000000000005')).toBe(false);
    expect(archivedThrough('0000000100000001000000A0', '0000000100000000000000FF')).toBe(true);
  });

  it('waits for a plain segment after a history or backup file, or nothing yet', () => {
    expect(archivedThrough(null, '000000010000000000000005')).toBe(false);
    expect(archivedThrough('000000010000000000000005.00000028.backup', '000000010000000000000005')).toBe(
      false,
    );
    expect(archivedThrough('00000002.history', '000000010000000000000005')).toBe(false);
  });

  it('a later timeline covers an earlier one', () => {
    expect(archivedThrough('000000020000000000000003', '000000010000000000000005')).toBe(true);
  });
});

describe('barman-cloud', () => {
  const store: BarmanStore = {
    endpointUrl: 'http://127.0.0.1:9000',
    destination: 's3://road-trip-db-backups/',
    serverName: 'road-trip-db',
    accessKeyId: 'k',
    secretAccessKey: 's',
  };

  it('archives gzip-compressed and restores through the same endpoint, without credentials on the line', () => {
    expect(archiveCommand(store)).toBe(
      'barman-cloud-wal-archive --endpoint-url http://127.0.0.1:9000 --gzip s3://road-trip-db-backups/ road-trip-db %p',
    );
    expect(restoreCommand(store)).toBe(
      'barman-cloud-wal-restore --endpoint-url http://127.0.0.1:9000 s3://road-trip-db-backups/ road-trip-db %f %p',
    );
  });

  it('picks the newest finished backup', () => {
    const listing = JSON.stringify({
      backups_list: [
        { backup_id: '20261126T211848', status: 'DONE' },
        { backup_id: '20261127T010000', status: 'FAILED' },
        { backup_id: '20261126T230000', status: 'DONE' },
      ],
    });
    expect(newestBackup(listing).backup_id).toBe('20261126T230000');
    expect(() => newestBackup('{"backups_list": []}')).toThrow(/no finished backup/);
  });

  it('counts the segments a restored server fetched', () => {
    const log = [
      'LOG:  restored log file "00000002.history" from archive',
      'LOG:  restored log file "000000010000000000000003" from archive',
      'LOG:  redo starts at 0/3000028',
      'LOG:  restored log file "000000010000000000000004" from archive',
    ].join('\n');
    expect(restoredSegments(log)).toBe(2);
  });
});

describe('settings and options', () => {
  it('writes postgresql.auto.conf lines with quotes escaped', () => {
    expect(settingLine('archive_timeout', '10s')).toBe("archive_timeout = '10s'");
    expect(settingLine('recovery_target_name', "it's")).toBe("recovery_target_name = 'it''s'");
  });

  it('parses the flags', () => {
    expect(parseOptions([])).toEqual({ target: 'name', archiveTimeoutSeconds: 10, keep: false });
    expect(parseOptions(['--', '--target', 'time', '--archive-timeout', '30', '--keep'])).toEqual({
      target: 'time',
      archiveTimeoutSeconds: 30,
      keep: true,
    });
    expect(parseOptions(['--help'])).toBe('help');
    expect(() => parseOptions(['--target', 'lsn'])).toThrow(/--target/);
    expect(() => parseOptions(['--archive-timeout', '0'])).toThrow(/--archive-timeout/);
  });

  it('prints RPO and RTO', () => {
    const lines = formatFigures({
      target: "recovery_target_name 'p'",
      archiveTimeoutSeconds: 10,
      lastWriteArchivedSeconds: 8,
      backupSeconds: 19,
      segmentsRestored: 3,
      rto: { fetchSeconds: 2.8, replaySeconds: 5.6, servicesSeconds: 4.7, totalSeconds: 13.1 },
      verifySeconds: 0.2,
      tables: 31,
      rows: 26101,
      runSeconds: 57,
    });
    expect(lines.join('\n')).toContain('RTO: 13.1 s = base backup fetched and unpacked 2.8 s');
    expect(lines.join('\n')).toContain('RPO: a commit reached the bucket 8.0 s after it was written');
  });
});

describe('catalogueVersions', () => {
  const records: CatalogueRecord[] = Array.from({ length: 320 }, (_, i) => ({
    id: `TRV-${String(i + 1).padStart(6, '0')}`,
    name: `Offer ${i + 1}`,
    rating: 4,
  }));

  it('changes and adds before the point, removes (less than half) and changes after it', () => {
    const { initial, atPoint, after } = catalogueVersions(records, 300);
    expect(initial).toHaveLength(300);
    expect(atPoint).toHaveLength(320);
    expect(atPoint[0].name).toBe('Offer 1 (spring edition)');
    expect(atPoint[30]).toEqual(records[30]);
    expect(after).toHaveLength(256);
    expect(after.length / atPoint.length).toBeGreaterThan(0.5);
    expect(after.filter((r) => r.name.endsWith('(last minute)'))).toHaveLength(10);
    expect(fromNdjson(toNdjson(after))).toEqual(after);
  });

  it('refuses too few records', () => {
    expect(() => catalogueVersions(records.slice(0, 300), 300)).toThrow(/need more than/);
  });
});
