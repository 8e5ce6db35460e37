/**
 * Groups sequences into model batches. Every row of a batch is padded to its longest member, and attention costs
 * grow with rows x length², so sequences are sorted by length (short ones travel together) and a batch closes
 * when it reaches `maxBatch` rows or `maxPaddedTokens` padded tokens, whichever comes first.
 *
 * Returns indices into `lengths`; callers put results back in their own order through them.
 */
export function planBatches(lengths: readonly number[], maxBatch: number, maxPaddedTokens: number): number[][] {
  const order = lengths.map((_, index) => index).sort((a, b) => (lengths[a] ?? 0) - (lengths[b] ?? 0) || a - b);
  const batches: number[][] = [];
  let current: number[] = [];
  for (const index of order) {
    const length = lengths[index] ?? 0;
    // Sorted ascending, so the newcomer is the longest: the padded size becomes rows x its length.
    const paddedIfAdded = (current.length + 1) * length;
    if (current.length > 0 && (current.length >= maxBatch || paddedIfAdded > maxPaddedTokens)) {
      batches.push(current);
      current = [];
    }
    current.push(index);
  }
  if (current.length) batches.push(current);
  return batches;
}
