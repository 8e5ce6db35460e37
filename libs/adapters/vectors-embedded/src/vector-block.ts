import { QuantizedRows } from './quantized-rows.js';
import { createDotsMemory, STRIDE_ALIGN_FLOATS, WASM_PAGE_BYTES, type DotsFn, type WasmMemory } from './simd-dot.js';

/**
 * Contiguous rows of one end user's kNN index: `capacity` rows of `stride` floats (dims zero-padded to a multiple of
 * 16), plus a scores scratch area with one float per row. Views change when the block grows, so read them afresh.
 */
export interface VectorBlock {
  readonly kind: 'js' | 'wasm';
  readonly capacity: number;
  readonly stride: number;
  readonly rows: Float32Array;
  readonly scores: Float32Array;
  /**
   * Whether scoreApproximate() is a cheaper first pass than score() (an int8 copy of the rows): the caller then
   * keeps more candidates than it needs and re-scores them with exactScore().
   */
  readonly quantised: boolean;
  /** Writes vector / |vector| into row `slot`, zero-padded; a zero vector stays zero and scores 0. */
  writeRow(slot: number, vector: Float32Array): void;
  /** Copies row `from` over row `to` (a removal moves the last row into the gap). */
  moveRow(from: number, to: number): void;
  /** Sets the query used by the scores; shorter than stride is zero-padded. */
  setQuery(query: Float32Array): void;
  /** scores[r] = rows[r] . query for r in [start, start + count). */
  score(start: number, count: number): void;
  /** scores[r] ≈ rows[r] . query (within about 0.01 when quantised; exact otherwise) for r in [start, start + count). */
  scoreApproximate(start: number, count: number): void;
  /** rows[slot] . query, exactly. */
  exactScore(slot: number): number;
  /** A block of `capacity` rows holding this block's first `keepRows` rows; this block is unusable afterwards. */
  grow(capacity: number, keepRows: number): VectorBlock;
}

export const paddedStride = (dims: number) => Math.max(1, Math.ceil(dims / STRIDE_ALIGN_FLOATS)) * STRIDE_ALIGN_FLOATS;

/**
 * Small indexes stay in plain typed arrays: each WebAssembly memory reserves gigabytes of address space, and
 * below this size the JS loop takes about a millisecond anyway.
 */
const WASM_MIN_ROW_BYTES = 4 * 1024 * 1024;

export function createBlock(stride: number, capacity: number): VectorBlock {
  return capacity * stride * 4 >= WASM_MIN_ROW_BYTES ? (WasmBlock.create(stride, capacity) ?? new JsBlock(stride, capacity)) : new JsBlock(stride, capacity);
}

/** Fills rows [0, count) of a new block from another block's rows (normalised already). */
function copyRows(target: VectorBlock, rows: Float32Array, count: number): VectorBlock {
  const stride = target.stride;
  for (let r = 0; r < count; r++) target.writeRow(r, rows.subarray(r * stride, (r + 1) * stride));
  return target;
}

class JsBlock implements VectorBlock {
  readonly kind = 'js';
  readonly quantised = false;
  readonly rows: Float32Array;
  readonly scores: Float32Array;
  private readonly query: Float32Array;

  constructor(
    readonly stride: number,
    readonly capacity: number,
  ) {
    this.rows = new Float32Array(stride * capacity);
    this.scores = new Float32Array(capacity);
    this.query = new Float32Array(stride);
  }

  writeRow(slot: number, vector: Float32Array): void {
    writeNormalised(this.rows.subarray(slot * this.stride, (slot + 1) * this.stride), vector);
  }

  moveRow(from: number, to: number): void {
    this.rows.copyWithin(to * this.stride, from * this.stride, (from + 1) * this.stride);
  }

  setQuery(query: Float32Array): void {
    this.query.fill(0).set(query);
  }

  scoreApproximate(start: number, count: number): void {
    this.score(start, count);
  }

  exactScore(slot: number): number {
    const { rows, query } = this;
    let sum = 0;
    for (let j = 0, offset = slot * this.stride; j < query.length; j++) sum += rows[offset + j]! * query[j]!;
    return sum;
  }

  score(start: number, count: number): void {
    const { rows, query, scores, stride } = this;
    // Eight partial sums break the add dependency chain; stride is a multiple of 16, so no remainder loop.
    for (let r = start, base = start * stride, end = start + count; r < end; r++, base += stride) {
      let s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
      for (let j = 0; j < stride; j += 8) {
        const b = base + j;
        s0 += (rows[b] as number) * (query[j] as number);
        s1 += (rows[b + 1] as number) * (query[j + 1] as number);
        s2 += (rows[b + 2] as number) * (query[j + 2] as number);
        s3 += (rows[b + 3] as number) * (query[j + 3] as number);
        s4 += (rows[b + 4] as number) * (query[j + 4] as number);
        s5 += (rows[b + 5] as number) * (query[j + 5] as number);
        s6 += (rows[b + 6] as number) * (query[j + 6] as number);
        s7 += (rows[b + 7] as number) * (query[j + 7] as number);
      }
      scores[r] = s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7;
    }
  }

  grow(capacity: number, keepRows: number): VectorBlock {
    return copyRows(createBlock(this.stride, capacity), this.rows, keepRows);
  }
}

/**
 * Rows in a WebAssembly memory scored by the SIMD kernel. Layout: [query | rows | scores]; growing extends the
 * memory in place, so rows keep their offsets and only the scratch scores move.
 */
class WasmBlock implements VectorBlock {
  readonly kind = 'wasm';
  rows!: Float32Array;
  scores!: Float32Array;
  private queryView!: Float32Array;
  private readonly rowsOffset: number;

  private constructor(
    private readonly memory: WasmMemory,
    private readonly dots: DotsFn,
    readonly stride: number,
    public capacity: number,
    /** The int8 copy for the first pass; null when it could not be had (every scan is then exact). */
    private int8: QuantizedRows | null,
  ) {
    this.rowsOffset = stride * 4;
    this.refreshViews();
  }

  get quantised(): boolean {
    return this.int8 !== null;
  }

  /** Null when WebAssembly SIMD or the memory is not available: the caller falls back to plain arrays. */
  static create(stride: number, capacity: number): WasmBlock | null {
    const bound = createDotsMemory(WasmBlock.pagesFor(stride, capacity));
    return bound && new WasmBlock(bound.memory, bound.dots, stride, capacity, QuantizedRows.create(stride, capacity));
  }

  private static pagesFor(stride: number, capacity: number): number {
    return Math.ceil((stride * 4 + capacity * stride * 4 + capacity * 4) / WASM_PAGE_BYTES);
  }

  private refreshViews(): void {
    const buffer = this.memory.buffer;
    this.queryView = new Float32Array(buffer, 0, this.stride);
    this.rows = new Float32Array(buffer, this.rowsOffset, this.capacity * this.stride);
    this.scores = new Float32Array(buffer, this.rowsOffset + this.capacity * this.stride * 4, this.capacity);
  }

  writeRow(slot: number, vector: Float32Array): void {
    const row = this.rows.subarray(slot * this.stride, (slot + 1) * this.stride);
    writeNormalised(row, vector);
    this.int8?.write(slot, row);
  }

  moveRow(from: number, to: number): void {
    this.rows.copyWithin(to * this.stride, from * this.stride, (from + 1) * this.stride);
    this.int8?.move(from, to);
  }

  setQuery(query: Float32Array): void {
    this.queryView.fill(0).set(query);
    this.int8?.setQuery(this.queryView);
  }

  scoreApproximate(start: number, count: number): void {
    if (this.int8) this.int8.score(start, count, this.scores);
    else this.score(start, count);
  }

  exactScore(slot: number): number {
    this.score(slot, 1);
    return this.scores[slot]!;
  }

  score(start: number, count: number): void {
    if (count <= 0) return;
    const strideBytes = this.stride * 4;
    this.dots(0, this.rowsOffset + start * strideBytes, count, strideBytes, this.scores.byteOffset + start * 4);
  }

  grow(capacity: number, keepRows: number): VectorBlock {
    const missing = WasmBlock.pagesFor(this.stride, capacity) - this.memory.buffer.byteLength / WASM_PAGE_BYTES;
    try {
      if (missing > 0) this.memory.grow(missing);
    } catch {
      return copyRows(new JsBlock(this.stride, capacity), this.rows, keepRows);
    }
    try {
      this.int8?.grow(capacity);
    } catch {
      this.int8 = null; // out of address space for the copy: scans stay exact, only slower
    }
    this.capacity = capacity;
    this.refreshViews();
    return this;
  }
}

/** Writes vector / |vector| into `target` (zero-padding the rest); a zero vector stays zero and scores 0. */
export function writeNormalised(target: Float32Array, vector: Float32Array): void {
  let norm = 0;
  for (let j = 0; j < vector.length; j++) norm += vector[j]! * vector[j]!;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let j = 0; j < vector.length; j++) target[j] = vector[j]! * scale;
  target.fill(0, vector.length);
}
