// The search service's catalogue in three versions (a small file, CATALOGUE_SOURCE): the one built at
// start-up, the one reindexed before the restore point (records changed and added), and the one
// reindexed after it (records removed and changed), so that the restore must bring back the second.

/** A record of the catalogue (apps/search/src/catalogue/travel-offer.schema.json); only `id` and `name` are touched. */
export interface CatalogueRecord {
  id: string;
  name: string;
  [field: string]: unknown;
}

export interface CatalogueVersions {
  initial: CatalogueRecord[];
  atPoint: CatalogueRecord[];
  after: CatalogueRecord[];
}

const renamed = (record: CatalogueRecord, suffix: string): CatalogueRecord => ({
  ...record,
  name: `${record.name} ${suffix}`,
});

/**
 * From `base + added` generated records: `initial` is the first `base`; `atPoint` renames a tenth of
 * them and adds the `added` others; `after` removes a fifth of `atPoint` (below the reindex's removal
 * guard of half) and renames a few more.
 */
export function catalogueVersions(records: CatalogueRecord[], base: number): CatalogueVersions {
  if (records.length <= base || base < 20) {
    throw new Error(
      `catalogueVersions: need more than ${base} records (and base ≥ 20), got ${records.length}`,
    );
  }
  const tenth = Math.floor(base / 10);
  const initial = records.slice(0, base);
  const atPoint = [
    ...initial.map((record, i) => (i < tenth ? renamed(record, '(spring edition)') : record)),
    ...records.slice(base),
  ];
  const removeFrom = tenth;
  const removeTo = tenth + Math.floor(atPoint.length / 5);
  const after = atPoint
    .filter((_, i) => i < removeFrom || i >= removeTo)
    .map((record, i) => (i >= removeFrom && i < removeFrom + 10 ? renamed(record, '(last minute)') : record));
  return { initial, atPoint, after };
}

export const toNdjson = (records: CatalogueRecord[]): string =>
  records.map((record) => JSON.stringify(record)).join('\n') + '\n';

export const fromNdjson = (text: string): CatalogueRecord[] =>
  text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as CatalogueRecord);
