/**
 * Sentence vectors from a [rows, width, dimensions] last hidden state, one row at a time. Rows are padded to the
 * batch's width after their own `tokens`; the padding's positions are masked out of attention but still have
 * outputs, which must not count.
 */

/** The [CLS] token's vector, position 0 of the row; copied out so the big output buffer can be collected. */
export function clsVector(hidden: Float32Array, rowStart: number, _tokens: number, dimensions: number): Float32Array {
  return hidden.slice(rowStart, rowStart + dimensions);
}

/**
 * The mean of the row's token vectors, [CLS] and [SEP] included as sentence-transformers does it; the padding after
 * the row's own tokens (masked out) is left out.
 */
export function meanOfTokens(hidden: Float32Array, rowStart: number, tokens: number, dimensions: number): Float32Array {
  const mean = new Float32Array(dimensions);
  for (let d = 0; d < dimensions; d++) {
    let sum = 0;
    for (let t = 0; t < tokens; t++) sum += hidden[rowStart + t * dimensions + d]!;
    mean[d] = sum / tokens;
  }
  return mean;
}
