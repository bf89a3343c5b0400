/**
 * The RRF score of docs/decisions.md D-51: w/(k + rank_semantic) + (1 − w)/(k + rank_text), a side the
 * record is absent from adding nothing (pure): the fusion of a hybrid search (memory-listing.ts)
 * and the explain mode's contributions (travels/travels.mapper.ts).
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
