/**
 * The value of the `vectors` table: everything the kNN index needs for one memory, so loading an end user's index is
 * one range read with no msgpack decoding.
 *
 *   Float64 createdAt | Float64 n | n x (Float64 start, Float64 end) | Float32 x dims
 *
 * The header is a whole number of 8-byte words, so the floats stay aligned. Numbers are in the platform's byte
 * order (little-endian on every platform Node ships for).
 */
export interface VectorEntry {
  createdAt: number;
  /** Event time intervals as [start0, end0, start1, end1, ...], or null when the memory has none. */
  times: Float64Array | null;
  vector: Float32Array;
}

export function encodeVectorEntry(createdAt: number, eventTimes: ReadonlyArray<{ start: number; end: number }>, vector: Float32Array): Buffer {
  const headerWords = 2 + 2 * eventTimes.length;
  const bytes = Buffer.alloc(headerWords * 8 + vector.length * 4);
  const header = new Float64Array(bytes.buffer, bytes.byteOffset, headerWords);
  header[0] = createdAt;
  header[1] = eventTimes.length;
  eventTimes.forEach((t, i) => {
    header[2 + 2 * i] = t.start;
    header[3 + 2 * i] = t.end;
  });
  new Float32Array(bytes.buffer, bytes.byteOffset + headerWords * 8, vector.length).set(vector);
  return bytes;
}

/** Views into `bytes` where it is aligned, else into a copy; callers copy the vector if they keep it. */
export function decodeVectorEntry(bytes: Uint8Array): VectorEntry {
  const aligned = bytes.byteOffset % 8 === 0 ? bytes : Uint8Array.prototype.slice.call(bytes);
  const pairs = new Float64Array(aligned.buffer, aligned.byteOffset + 8, 1)[0] ?? 0;
  const headerWords = 2 + 2 * pairs;
  const header = new Float64Array(aligned.buffer, aligned.byteOffset, headerWords);
  const dims = (aligned.byteLength - headerWords * 8) / 4;
  return {
    createdAt: header[0] ?? 0,
    times: pairs > 0 ? header.subarray(2) : null,
    vector: new Float32Array(aligned.buffer, aligned.byteOffset + headerWords * 8, dims),
  };
}

/** Dimensions of a stored entry without decoding it. */
export function entryDims(bytes: Uint8Array): number {
  return decodeVectorEntry(bytes).vector.length;
}
