/**
 * The RRF score of docs/decisions.md D-51: w/(k + rank_semantic) + (1 − w)/(k + rank_text), a side the
 * record is absent from adding nothing (pure): the fusion of a hybrid search (fuseRanks) and the
 * explain mode's contributions (travels/travels.mapper.ts).
 */
export function rrfScore(
  vectorWeight: number,
  k: number,
  semanticRank: number | undefined,
  textRank: number | undefined,
): number {
  return (
    (semanticRank === undefined ? 0 : vectorWeight / (k + semanticRank)) +
    (textRank === undefined ? 0 : (1 - vectorWeight) / (k + textRank))
  );
}

/** A record ranked by one side: its ordinal and its rank there (1-based). */
export interface SideRank {
  ordinal: number;
  rank: number;
}

/** A record of the fused ranking: its rank on each side (null: not ranked there) and its RRF score. */
export interface FusedRecord {
  ordinal: number;
  semanticRank: number | null;
  textRank: number | null;
  score: number;
}

/** The fused ranking of a hybrid search. */
export interface Fusion {
  /** Best score first, ties on ordinal (the id order). */
  ranked: FusedRecord[];
  /** How many records the semantic side alone ranks (no text rank at least the text floor). */
  semanticOnly: number;
}

/**
 * The RRF fusion of a hybrid search (D-51), pure: the records of `textBest` (the text side's best,
 * ranked at least the text floor; empty when the text side weighs nothing) and of `semantic` (the
 * semantic side's, ranked at least the semantic floor), scored by rrfScore and ranked. A semantic
 * record past `textBest` keeps its text rank, asked of `textRanksOf` in one call for all of them
 * (undefined: no text side). A page of the first `textBest.length` records is exact: a record the
 * text side alone ranks past them scores less than each.
 */
export function fuseRanks(
  vectorWeight: number,
  k: number,
  textBest: readonly SideRank[],
  semantic: readonly SideRank[],
  textRanksOf: ((ordinals: number[]) => ReadonlyMap<number, number>) | undefined,
): Fusion {
  const fused = new Map<number, FusedRecord>();
  const recordOf = (ordinal: number) => {
    let record = fused.get(ordinal);
    if (!record) fused.set(ordinal, (record = { ordinal, semanticRank: null, textRank: null, score: 0 }));
    return record;
  };
  for (const { ordinal, rank } of textBest) recordOf(ordinal).textRank = rank;
  const textRanks = textRanksOf
    ? textRanksOf(
        semantic.filter(({ ordinal }) => fused.get(ordinal)?.textRank == null).map(({ ordinal }) => ordinal),
      )
    : undefined;
  let semanticOnly = 0;
  for (const { ordinal, rank } of semantic) {
    const record = recordOf(ordinal);
    record.semanticRank = rank;
    record.textRank ??= textRanks?.get(ordinal) ?? null;
    if (record.textRank === null) semanticOnly++;
  }
  const ranked = [...fused.values()];
  for (const record of ranked)
    record.score = rrfScore(vectorWeight, k, record.semanticRank ?? undefined, record.textRank ?? undefined);
  ranked.sort((a, b) => b.score - a.score || a.ordinal - b.ordinal);
  return { ranked, semanticOnly };
}
