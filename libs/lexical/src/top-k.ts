/**
 * The k best (score, slot) pairs of a stream, in O(n log k) with no allocation per candidate: a binary min-heap
 * whose root is the worst kept entry, so most candidates are rejected by one comparison. Equal scores are broken
 * by `before(a, b)` (true when slot a ranks first), so results do not depend on the order slots were visited.
 */
export class TopK {
  private readonly scores: Float64Array;
  private readonly slots: Int32Array;
  private size = 0;

  constructor(
    private readonly k: number,
    private readonly before: (a: number, b: number) => boolean,
  ) {
    this.scores = new Float64Array(k);
    this.slots = new Int32Array(k);
  }

  /** The lowest score still kept once full; a candidate below it can be skipped without calling offer. */
  get floor(): number {
    return this.size < this.k ? -Infinity : (this.scores[0] as number);
  }

  offer(score: number, slot: number): void {
    if (this.size < this.k) {
      this.siftUp(this.size++, score, slot);
    } else if (this.k > 0 && this.ranksAbove(score, slot, this.scores[0] as number, this.slots[0] as number)) {
      this.siftDown(0, score, slot);
    }
  }

  /** Kept entries, best first. */
  drain(): Array<{ slot: number; score: number }> {
    const out: Array<{ slot: number; score: number }> = [];
    for (let i = 0; i < this.size; i++) out.push({ slot: this.slots[i] as number, score: this.scores[i] as number });
    out.sort((a, b) => (b.score - a.score) || (this.before(a.slot, b.slot) ? -1 : 1));
    this.size = 0;
    return out;
  }

  private ranksAbove(score: number, slot: number, otherScore: number, otherSlot: number): boolean {
    return score > otherScore || (score === otherScore && this.before(slot, otherSlot));
  }

  private siftUp(index: number, score: number, slot: number): void {
    while (index > 0) {
      const parent = (index - 1) >> 1;
      const parentScore = this.scores[parent] as number;
      const parentSlot = this.slots[parent] as number;
      if (!this.ranksAbove(parentScore, parentSlot, score, slot)) break;
      this.scores[index] = parentScore;
      this.slots[index] = parentSlot;
      index = parent;
    }
    this.scores[index] = score;
    this.slots[index] = slot;
  }

  private siftDown(index: number, score: number, slot: number): void {
    for (;;) {
      let child = 2 * index + 1;
      if (child >= this.size) break;
      const right = child + 1;
      if (right < this.size && this.ranksAbove(this.scores[child] as number, this.slots[child] as number, this.scores[right] as number, this.slots[right] as number)) {
        child = right;
      }
      if (!this.ranksAbove(score, slot, this.scores[child] as number, this.slots[child] as number)) break;
      this.scores[index] = this.scores[child] as number;
      this.slots[index] = this.slots[child] as number;
      index = child;
    }
    this.scores[index] = score;
    this.slots[index] = slot;
  }
}
