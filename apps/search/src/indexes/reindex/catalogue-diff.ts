import type { CatalogueRecord } from '../../catalogue/catalogue-record';
import { contentHash } from '../../catalogue/content-hash';
import type { EmbeddingIdentity } from '../../catalogue/content-hash';
import type { ReindexCounts } from './rebuild-run';

/** The source would remove more of the catalogue than REINDEX_MAX_REMOVAL_SHARE: nothing changes. */
export class MassRemovalRefused extends Error {}

/**
 * Step 2 of a rebuild, the diff (pure: no database, no I/O): the source's records against the
 * content hashes of the offers in the index. A record whose content hash (its content, the
 * embedding model and the dimension: contentHash) the index holds is unchanged; the others are
 * new or updated and must be embedded and written; the offers the source no longer has are
 * removed, unless they are too large a share of the index. Tallies go to `counts`.
 */
export class CatalogueDiff {
  private readonly indexedCount: number;

  constructor(
    /**
     * Content hash by id of the offers in the index. The diff takes the map over: each id the
     * source has is deleted from it, so that what remains is what the source no longer has.
     */
    private readonly indexed: Map<string, string>,
    private readonly embedding: EmbeddingIdentity,
    private readonly counts: ReindexCounts,
  ) {
    this.indexedCount = indexed.size;
  }

  /**
   * The record's content hash when the index must write it (counted as inserted or updated), or
   * undefined when the index holds it unchanged (counted as unchanged). Give each id once.
   */
  changedHash(record: CatalogueRecord): string | undefined {
    const hash = contentHash(record, this.embedding);
    const previous = this.indexed.get(record.id);
    if (previous === undefined) {
      this.counts.inserted++;
      return hash;
    }
    this.indexed.delete(record.id);
    if (previous === hash) {
      this.counts.unchanged++;
      return undefined;
    }
    this.counts.updated++;
    return hash;
  }

  /**
   * Once the source is read: the ids of the offers it no longer has (counted as removed). Throws
   * MassRemovalRefused when they are more than `maxShare` of the index, unless `force`.
   */
  removedIds(maxShare: number, force: boolean): string[] {
    const removed = [...this.indexed.keys()];
    this.counts.removed = removed.length;
    const share = this.indexedCount === 0 ? 0 : removed.length / this.indexedCount;
    if (share > maxShare && !force) {
      throw new MassRemovalRefused(
        `the source would remove ${removed.length} of ${this.indexedCount} offers (${(share * 100).toFixed(1)}%, ` +
          `more than REINDEX_MAX_REMOVAL_SHARE=${maxShare}); nothing was changed (force it with the reindex command's --force)`,
      );
    }
    return removed;
  }
}
