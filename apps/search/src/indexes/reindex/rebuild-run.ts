export interface ReindexCounts {
  inserted: number;
  updated: number;
  unchanged: number;
  removed: number;
  invalid: number;
}

export interface ReindexProgress {
  read: number;
  total?: number;
  invalid: number;
  embedded: number;
  phase: 'reading' | 'applying' | 'done';
}

/**
 * One rebuild as its steps share it: the counts its outcome reports (also when it fails part
 * way), the progress its caller watches, and whether to stop.
 */
export class RebuildRun {
  readonly counts: ReindexCounts = { inserted: 0, updated: 0, unchanged: 0, removed: 0, invalid: 0 };
  readonly progress: ReindexProgress = {
    read: 0,
    total: undefined,
    invalid: 0,
    embedded: 0,
    phase: 'reading',
  };

  constructor(
    /** True once the service is shutting down: reading stops, nothing is applied. */
    readonly stopping: () => boolean,
    private readonly onProgress?: (progress: ReindexProgress) => void,
  ) {}

  /** Hands the progress to the caller (the reindex command's progress bar). */
  reportProgress(): void {
    this.onProgress?.(this.progress);
  }

  enterPhase(phase: ReindexProgress['phase']): void {
    this.progress.phase = phase;
    this.reportProgress();
  }
}
