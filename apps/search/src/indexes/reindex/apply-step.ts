import { Injectable } from '@nestjs/common';
import type { ReindexCounts } from './rebuild-run';
import { ReindexRepository } from './reindex.repository';
import type { RebuildSession } from './reindex.repository';

/**
 * Step 4 of a rebuild, applying: in one transaction the offers the source no longer has are
 * deleted and the staged ones upserted (readers see the old catalogue or the new one); then the
 * staging table is emptied and, when anything changed, the planner's statistics refreshed.
 */
@Injectable()
export class ApplyStep {
  constructor(private readonly repository: ReindexRepository) {}

  /** Returns the size of the new catalogue; `counts.removed` becomes what the transaction removed. */
  async apply(session: RebuildSession, removedIds: string[], counts: ReindexCounts): Promise<number> {
    const changed = counts.inserted + counts.updated + counts.removed > 0;
    const applied = await session.apply(removedIds);
    counts.removed = applied.removed;
    await session.clearStaging();
    if (changed) await this.repository.vacuumAnalyze();
    return applied.total;
  }
}
