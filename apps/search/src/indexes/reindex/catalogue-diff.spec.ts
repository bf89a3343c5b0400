import type { CatalogueRecord } from '../../catalogue/catalogue-record';
import { contentHash } from '../../catalogue/content-hash';
import { CatalogueDiff, MassRemovalRefused } from './catalogue-diff';
import type { ReindexCounts } from './rebuild-run';

const identity = { model: 'builtin-hash-v1', dimension: 384 };
const offer = (id: string, name = `Offer ${id}`): CatalogueRecord => ({ id, name, slug: id.toLowerCase() });
const hashOf = (record: CatalogueRecord) => contentHash(record, identity);
const noCounts = (): ReindexCounts => ({ inserted: 0, updated: 0, unchanged: 0, removed: 0, invalid: 0 });

/** An index holding these records as they are. */
const indexOf = (...records: CatalogueRecord[]) =>
  new Map(records.map((record) => [record.id, hashOf(record)] as [string, string]));

describe('CatalogueDiff', () => {
  it('sorts the source against the index: new and changed records get their hash, unchanged ones none', () => {
    const counts = noCounts();
    const diff = new CatalogueDiff(indexOf(offer('A'), offer('B'), offer('C')), identity, counts);

    expect(diff.changedHash(offer('A'))).toBeUndefined();
    expect(diff.changedHash(offer('B', 'Renamed'))).toBe(hashOf(offer('B', 'Renamed')));
    expect(diff.changedHash(offer('D'))).toBe(hashOf(offer('D')));
    expect(diff.removedIds(0.5, false)).toEqual(['C']);
    expect(counts).toEqual({ inserted: 1, updated: 1, unchanged: 1, removed: 1, invalid: 0 });
  });

  it('treats the same content in another key order as unchanged', () => {
    const counts = noCounts();
    const diff = new CatalogueDiff(
      indexOf({ id: 'A', name: 'x', slug: 'a', extra: { p: 1, q: 2 } }),
      identity,
      counts,
    );
    expect(diff.changedHash({ slug: 'a', extra: { q: 2, p: 1 }, name: 'x', id: 'A' })).toBeUndefined();
    expect(counts.unchanged).toBe(1);
  });

  it('rewrites every record when the embedding model or dimension changes', () => {
    const indexed = indexOf(offer('A'), offer('B'));
    const counts = noCounts();
    const diff = new CatalogueDiff(indexed, { ...identity, model: 'another-model' }, counts);
    expect(diff.changedHash(offer('A'))).toBeDefined();
    expect(diff.changedHash(offer('B'))).toBeDefined();
    expect(diff.removedIds(0, false)).toEqual([]);
    expect(counts).toMatchObject({ inserted: 0, updated: 2, unchanged: 0, removed: 0 });
  });

  it('lists removals in the order of the index', () => {
    const diff = new CatalogueDiff(
      indexOf(offer('C'), offer('A'), offer('B'), offer('D')),
      identity,
      noCounts(),
    );
    diff.changedHash(offer('A'));
    expect(diff.removedIds(1, false)).toEqual(['C', 'B', 'D']);
  });

  it('refuses to remove more than the allowed share unless forced, counting the removals either way', () => {
    const index = () => indexOf(offer('A'), offer('B'), offer('C'), offer('D'));
    const counts = noCounts();
    const refused = new CatalogueDiff(index(), identity, counts);
    refused.changedHash(offer('A'));
    expect(() => refused.removedIds(0.5, false)).toThrow(MassRemovalRefused);
    expect(counts.removed).toBe(3);
    expect(() => refused.removedIds(0.5, false)).toThrow(
      'the source would remove 3 of 4 offers (75.0%, more than REINDEX_MAX_REMOVAL_SHARE=0.5); ' +
        "nothing was changed (force it with the reindex command's --force)",
    );

    const forced = new CatalogueDiff(index(), identity, noCounts());
    forced.changedHash(offer('A'));
    expect(forced.removedIds(0.5, true)).toEqual(['B', 'C', 'D']);

    const atTheLimit = new CatalogueDiff(index(), identity, noCounts());
    atTheLimit.changedHash(offer('A'));
    atTheLimit.changedHash(offer('B'));
    expect(atTheLimit.removedIds(0.5, false)).toEqual(['C', 'D']);
  });

  it('never refuses on an empty index', () => {
    const counts = noCounts();
    const diff = new CatalogueDiff(new Map(), identity, counts);
    expect(diff.changedHash(offer('A'))).toBe(hashOf(offer('A')));
    expect(diff.removedIds(0, false)).toEqual([]);
    expect(counts).toMatchObject({ inserted: 1, removed: 0 });
  });
});
