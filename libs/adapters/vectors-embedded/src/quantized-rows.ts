import { createDotsMemory, I8_STRIDE_ALIGN_BYTES, WASM_PAGE_BYTES, type DotsFn, type WasmMemory } from './simd-dot.js';

/**
 * An int8 copy of a block's unit rows, for a first pass that reads a quarter of the bytes: each row is scaled so
 * its largest component is ±127 (the scale kept per row), the query likewise. An approximate cosine is then
 * int8·int8 × both scales, within about 0.01 of the exact one for 384-d text embeddings; the caller re-scores its
 * best candidates exactly.
 *
 * Layout of its WebAssembly memory: [query as int16 | rows as int8 | int32 dot products]; growing extends the memory
 * in place, so rows keep their offsets and only the scratch products move.
 */
export class QuantizedRows {
  private scales: Float32Array;
  private queryScale = 0;
  private query!: Int16Array;
  private rows!: Int8Array;
  private products!: Int32Array;
  private readonly rowsOffset: number;

  private constructor(
    private readonly memory: WasmMemory,
    private readonly dotsI8: DotsFn,
    /** Bytes of one quantised row: the float stride rounded up to the kernel's step. */
    readonly rowBytes: number,
    private capacity: number,
  ) {
    this.rowsOffset = rowBytes * 2;
    this.scales = new Float32Array(capacity);
    this.refreshViews();
  }

  /** Null when WebAssembly SIMD or the memory is not available. */
  static create(floatStride: number, capacity: number): QuantizedRows | null {
    const rowBytes = Math.ceil(floatStride / I8_STRIDE_ALIGN_BYTES) * I8_STRIDE_ALIGN_BYTES;
    const bound = createDotsMemory(QuantizedRows.pagesFor(rowBytes, capacity));
    return bound && new QuantizedRows(bound.memory, bound.dotsI8, rowBytes, capacity);
  }

  private static pagesFor(rowBytes: number, capacity: number): number {
    return Math.ceil((rowBytes * 2 + capacity * rowBytes + capacity * 4) / WASM_PAGE_BYTES);
  }

  private refreshViews(): void {
    const buffer = this.memory.buffer;
    this.query = new Int16Array(buffer, 0, this.rowBytes);
    this.rows = new Int8Array(buffer, this.rowsOffset, this.capacity * this.rowBytes);
    this.products = new Int32Array(buffer, this.rowsOffset + this.capacity * this.rowBytes, this.capacity);
  }

  /** Throws when the memory cannot grow (the caller then drops the quantised copy and scans the floats). */
  grow(capacity: number): void {
    const missing = QuantizedRows.pagesFor(this.rowBytes, capacity) - this.memory.buffer.byteLength / WASM_PAGE_BYTES;
    if (missing > 0) this.memory.grow(missing);
    const scales = new Float32Array(capacity);
    scales.set(this.scales.subarray(0, Math.min(this.capacity, capacity)));
    this.scales = scales;
    this.capacity = capacity;
    this.refreshViews();
  }

  write(slot: number, unit: Float32Array): void {
    this.scales[slot] = quantise(unit, this.rows.subarray(slot * this.rowBytes, (slot + 1) * this.rowBytes));
  }

  move(from: number, to: number): void {
    this.rows.copyWithin(to * this.rowBytes, from * this.rowBytes, (from + 1) * this.rowBytes);
    this.scales[to] = this.scales[from]!;
  }

  setQuery(unit: Float32Array): void {
    const bytes = new Int8Array(this.rowBytes);
    this.queryScale = quantise(unit, bytes);
    this.query.set(bytes);
  }

  /** out[r] = approximate cosine of row r with the query, for r in [start, start + count). */
  score(start: number, count: number, out: Float32Array): void {
    if (count <= 0) return;
    this.dotsI8(0, this.rowsOffset + start * this.rowBytes, count, this.rowBytes, this.products.byteOffset + start * 4);
    const { products, scales, queryScale } = this;
    for (let r = start, end = start + count; r < end; r++) out[r] = products[r]! * scales[r]! * queryScale;
  }
}

/** Writes round(v / max|v| × 127) into `target` (zero past v's length) and returns the scale back to v's units. */
function quantise(vector: Float32Array, target: Int8Array): number {
  let largest = 0;
  for (let j = 0; j < vector.length; j++) largest = Math.max(largest, Math.abs(vector[j]!));
  const toInt = largest > 0 ? 127 / largest : 0;
  const length = Math.min(vector.length, target.length);
  for (let j = 0; j < length; j++) target[j] = Math.round(vector[j]! * toInt);
  target.fill(0, length);
  return largest / 127;
}
