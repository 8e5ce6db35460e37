/** A Float32Array of unit length, summed in double precision; an all-zero input stays all zero rather than NaN. */
export function toUnitVector(values: ArrayLike<number>): Float32Array {
  let sumOfSquares = 0;
  for (let i = 0; i < values.length; i++) sumOfSquares += (values[i] ?? 0) ** 2;
  const scale = sumOfSquares > 0 ? 1 / Math.sqrt(sumOfSquares) : 0;
  const vector = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) vector[i] = (values[i] ?? 0) * scale;
  return vector;
}
