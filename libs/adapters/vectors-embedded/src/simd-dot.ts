/**
 * The kNN hot loops as a tiny hand-assembled WebAssembly module using 128-bit SIMD.
 *
 * Why not plain JS: V8 does not vectorise a loop over a Float32Array, so a tuned JS loop runs several times slower
 * than four f32x4 accumulators, which reach the memory-bandwidth limit (README, Measurements). The module is
 * assembled from bytes below rather than shipped as a .wasm file, so nothing is fetched or built at install time.
 *
 * Exported function `dots(query, rows, count, strideBytes, out)`, all byte offsets into the imported memory:
 *   for r in 0..count: out[r] = sum_j rows[r * stride + j] * query[j]
 * `strideBytes` must be a positive multiple of STRIDE_ALIGN_BYTES: the inner loop takes 64 bytes (16 floats) per
 * step, so callers zero-pad each row and the query up to that multiple.
 *
 * Exported function `dotsI8(query, rows, count, strideBytes, out)`, the same over int8 rows: `query` holds the
 * quantised query widened to int16 (two bytes a dimension), `out` receives int32 dot products. `strideBytes` (of a
 * row) must be a positive multiple of I8_STRIDE_ALIGN_BYTES. A quarter of the bytes of the float rows, so a scan
 * bound by memory bandwidth runs about three times as fast; products of int8 values summed in int32 cannot
 * overflow below 65,000 dimensions.
 */

export const STRIDE_ALIGN_FLOATS = 16;
export const STRIDE_ALIGN_BYTES = STRIDE_ALIGN_FLOATS * 4;

export const I8_STRIDE_ALIGN_BYTES = 32;

export type DotsFn = (queryOffset: number, rowsOffset: number, count: number, strideBytes: number, outOffset: number) => void;

const ACCUMULATORS = 4;

function uleb(value: number): number[] {
  const out: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    out.push(byte);
  } while (value !== 0);
  return out;
}

/** i32.const takes a signed LEB128: 64 as an unsigned LEB would read back as -64. */
function sleb(value: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = value & 0x7f;
    value >>= 7;
    const done = (value === 0 && (byte & 0x40) === 0) || (value === -1 && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}

const name = (text: string) => [...uleb(text.length), ...Array.from(text, (c) => c.charCodeAt(0))];
const section = (id: number, body: number[]) => [id, ...uleb(body.length), ...body];

// Opcodes used (WebAssembly core 2.0 + fixed-width SIMD).
const I32 = 0x7f;
const V128 = 0x7b;
const localGet = (i: number) => [0x20, i];
const localSet = (i: number) => [0x21, i];
const localTee = (i: number) => [0x22, i];
const i32Const = (n: number) => [0x41, ...sleb(n)];
const I32_ADD = 0x6a;
const I32_SHL = 0x74;
const I32_LT_U = 0x49;
const I32_GE_U = 0x4f;
const BLOCK = [0x02, 0x40];
const LOOP = [0x03, 0x40];
const END = 0x0b;
const brIf = (depth: number) => [0x0d, depth];
const F32_ADD = 0x92;
const f32Store = [0x38, 2, 0];
const v128Load = (offset: number) => [0xfd, 0x00, 4, ...uleb(offset)];
const v128Zero = [0xfd, 0x0c, ...new Array<number>(16).fill(0)];
const f32x4ExtractLane = (lane: number) => [0xfd, 0x1f, lane];
const F32X4_ADD = [0xfd, 0xe4, 0x01];
const F32X4_MUL = [0xfd, 0xe6, 0x01];
const i32Store = [0x36, 2, 0];
const i32x4ExtractLane = (lane: number) => [0xfd, 0x1b, lane];
const I16X8_EXTEND_LOW_I8X16_S = [0xfd, 0x87, 0x01];
const I16X8_EXTEND_HIGH_I8X16_S = [0xfd, 0x88, 0x01];
const I32X4_ADD = [0xfd, 0xae, 0x01];
const I32X4_DOT_I16X8_S = [0xfd, 0xba, 0x01];

function assembleModule(): Uint8Array {
  const functions = [dotsF32Body(), dotsI8Body()];
  const code = functions.flatMap((f) => [...uleb(f.length), ...f]);
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 5, I32, I32, I32, I32, I32, 0]),
    ...section(2, [1, ...name('env'), ...name('memory'), 0x02, 0x00, 1]),
    ...section(3, [2, 0, 0]),
    ...section(7, [2, ...name('dots'), 0x00, 0, ...name('dotsI8'), 0x00, 1]),
    ...section(10, [2, ...code]),
  ]);
}

// Params of both kernels: 0 query, 1 rows (advanced as the row cursor), 2 count, 3 strideBytes, 4 out (advanced as
// the output cursor). Locals: 5 outEnd, 6 query cursor, 7 row end, 8.. the vector locals (accumulators first).
const [QUERY, ROWS, COUNT, STRIDE, OUT, OUT_END, QUERY_CURSOR, ROW_END, FIRST_VECTOR] = [0, 1, 2, 3, 4, 5, 6, 7, 8];

/**
 * The loop both kernels share: for each of `count` rows, zero the accumulators, run `step` over the row (the row
 * cursor advancing rowStep bytes and the query cursor queryStep each time), add up the accumulators' lanes and store
 * the sum at the output cursor.
 */
function perRowKernel(kernel: {
  accumulators: number[];
  /** Vector locals beyond the accumulators. */
  scratch: number;
  step: number[];
  rowStep: number;
  queryStep: number;
  vectorAdd: number[];
  extractLane: (lane: number) => number[];
  scalarAdd: number;
  store: number[];
}): number[] {
  const [first, ...rest] = kernel.accumulators;
  const body = [
    ...localGet(OUT), ...localGet(COUNT), ...i32Const(2), I32_SHL, I32_ADD, ...localSet(OUT_END),
    ...BLOCK,
    ...localGet(OUT), ...localGet(OUT_END), I32_GE_U, ...brIf(0),
    ...LOOP, // one row per iteration
    ...kernel.accumulators.flatMap((a) => [...v128Zero, ...localSet(a)]),
    ...localGet(QUERY), ...localSet(QUERY_CURSOR),
    ...localGet(ROWS), ...localGet(STRIDE), I32_ADD, ...localSet(ROW_END),
    ...LOOP,
    ...kernel.step,
    ...localGet(ROWS), ...i32Const(kernel.rowStep), I32_ADD, ...localSet(ROWS),
    ...localGet(QUERY_CURSOR), ...i32Const(kernel.queryStep), I32_ADD, ...localSet(QUERY_CURSOR),
    ...localGet(ROWS), ...localGet(ROW_END), I32_LT_U, ...brIf(0),
    END,
    ...localGet(OUT),
    ...localGet(first!), ...rest.flatMap((a) => [...localGet(a), ...kernel.vectorAdd]), ...localTee(first!),
    ...kernel.extractLane(0),
    ...[1, 2, 3].flatMap((lane) => [...localGet(first!), ...kernel.extractLane(lane), kernel.scalarAdd]),
    ...kernel.store,
    ...localGet(OUT), ...i32Const(4), I32_ADD, ...localTee(OUT), ...localGet(OUT_END), I32_LT_U, ...brIf(0),
    END,
    END,
    END,
  ];
  return [2, 3, I32, kernel.accumulators.length + kernel.scratch, V128, ...body];
}

function dotsF32Body(): number[] {
  // 16 floats per step, four independent accumulators so the adds pipeline.
  const accumulators = Array.from({ length: ACCUMULATORS }, (_, a) => FIRST_VECTOR + a);
  return perRowKernel({
    accumulators,
    scratch: 0,
    step: accumulators.flatMap((a, i) => [
      ...localGet(a), ...localGet(ROWS), ...v128Load(16 * i), ...localGet(QUERY_CURSOR), ...v128Load(16 * i),
      ...F32X4_MUL, ...F32X4_ADD, ...localSet(a),
    ]),
    rowStep: 16 * ACCUMULATORS,
    queryStep: 16 * ACCUMULATORS,
    vectorAdd: F32X4_ADD,
    extractLane: f32x4ExtractLane,
    scalarAdd: F32_ADD,
    store: f32Store,
  });
}

function dotsI8Body(): number[] {
  // 32 row bytes (and 64 query bytes, int16) per step: each half of 16 bytes widened to int16 and multiplied
  // pairwise into int32 lanes, four accumulators; the last vector local holds the 16 row bytes being widened.
  const accumulators = [FIRST_VECTOR, FIRST_VECTOR + 1, FIRST_VECTOR + 2, FIRST_VECTOR + 3];
  const bytes = FIRST_VECTOR + 4;
  const half = (rowOffset: number, low: number, high: number) => [
    ...localGet(ROWS), ...v128Load(rowOffset), ...localSet(bytes),
    ...localGet(low), ...localGet(bytes), ...I16X8_EXTEND_LOW_I8X16_S, ...localGet(QUERY_CURSOR), ...v128Load(rowOffset * 2), ...I32X4_DOT_I16X8_S, ...I32X4_ADD, ...localSet(low),
    ...localGet(high), ...localGet(bytes), ...I16X8_EXTEND_HIGH_I8X16_S, ...localGet(QUERY_CURSOR), ...v128Load(rowOffset * 2 + 16), ...I32X4_DOT_I16X8_S, ...I32X4_ADD, ...localSet(high),
  ];
  return perRowKernel({
    accumulators,
    scratch: 1,
    step: [...half(0, accumulators[0]!, accumulators[1]!), ...half(16, accumulators[2]!, accumulators[3]!)],
    rowStep: I8_STRIDE_ALIGN_BYTES,
    queryStep: I8_STRIDE_ALIGN_BYTES * 2,
    vectorAdd: I32X4_ADD,
    extractLane: i32x4ExtractLane,
    scalarAdd: I32_ADD,
    store: i32Store,
  });
}

// The few WebAssembly APIs used, typed here: the project's TypeScript libs (ES2023, @types/node 20) do not declare them.
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmModule {
  readonly kind?: never;
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule, imports: object) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number }) => WasmMemory;
}
const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

export const WASM_PAGE_BYTES = 65536;

let compiled: WasmModule | null | undefined;

function simdDotModule(): WasmModule | null {
  if (compiled === undefined) {
    const bytes = assembleModule();
    compiled = wasm && wasm.validate(bytes) ? new wasm.Module(bytes) : null;
  }
  return compiled;
}

/** Whether this runtime has WebAssembly SIMD; without it callers stay on the JS loop. */
export const simdAvailable = (): boolean => simdDotModule() !== null;

/** A fresh memory of `pages` 64 KiB pages with the kernels bound to it, or null when either cannot be had. */
export function createDotsMemory(pages: number): { memory: WasmMemory; dots: DotsFn; dotsI8: DotsFn } | null {
  const module = simdDotModule();
  if (!module || !wasm) return null;
  try {
    const memory = new wasm.Memory({ initial: pages });
    const { exports } = new wasm.Instance(module, { env: { memory } });
    return { memory, dots: exports['dots'] as DotsFn, dotsI8: exports['dotsI8'] as DotsFn };
  } catch {
    return null; // out of address space, or past the 4 GiB of a wasm32 memory
  }
}
