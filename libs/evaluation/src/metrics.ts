export interface EvidenceRecall {
  /** Some evidence turn is among the first k results. */
  any: boolean;
  /** Every evidence turn is among the first k results (what a multi-hop answer needs). */
  all: boolean;
}

/**
 * Evidence recall at k for one question. `ranked` is what a system returned, best first, as turn ids; null stands
 * for a result that is no turn of the conversation, which still takes its place in the top k.
 */
export function evidenceRecall(ranked: ReadonlyArray<string | null>, evidence: readonly string[], k: number): EvidenceRecall {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be a whole number of at least 1, not ${k}`);
  if (evidence.length === 0) throw new RangeError('a question without evidence cannot be scored');
  const top = new Set(ranked.slice(0, k));
  const found = evidence.filter((id) => top.has(id)).length;
  return { any: found > 0, all: found === evidence.length };
}
