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
  /** Sets the query used by score(); shorter than stride is zero-padded. */
  setQuery(query: Float32Array): void;
  /** scores[r] = rows[r] . query for r in [start, start + count). */
  score(start: number, count: number): void;
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

class JsBlock implements VectorBlock {
  readonly kind = 'js';
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

  setQuery(query: Float32Array): void {
    this.query.fill(0).set(query);
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
    const next = createBlock(this.stride, capacity);
    next.rows.set(this.rows.subarray(0, keepRows * this.stride));
    return next;
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
  ) {
    this.rowsOffset = stride * 4;
    this.refreshViews();
  }

  /** Null when WebAssembly SIMD or the memory is not available: the caller falls back to plain arrays. */
  static create(stride: number, capacity: number): WasmBlock | null {
    const bound = createDotsMemory(WasmBlock.pagesFor(stride, capacity));
    return bound && new WasmBlock(bound.memory, bound.dots, stride, capacity);
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

  setQuery(query: Float32Array): void {
    this.queryView.fill(0).set(query);
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
      const fallback = new JsBlock(this.stride, capacity);
      fallback.rows.set(this.rows.subarray(0, keepRows * this.stride));
      return fallback;
    }
    this.capacity = capacity;
    this.refreshViews();
    return this;
  }
}
