import { MemoryServiceError } from '@memory/platform';
import type { TokenPooling } from './options.js';

/**
 * Turns a feature-extraction answer for `count` texts into unit vectors. Services answer in one of three shapes:
 * one pooled vector per text (n x d), one vector per token per text (n x tokens x d), or, for a single text,
 * a bare vector (d). Anything else, a wrong length, or a non-finite number is refused rather than stored.
 */
export function responseToUnitVectors(output: unknown, count: number, dimensions: number, pooling: TokenPooling): Float32Array[] {
  const bad = (why: string) =>
    new MemoryServiceError('EMBEDDER.BAD_RESPONSE', `hosted embedder answered ${count} text(s) with ${why}`, { details: { count, dimensions } });
  if (!Array.isArray(output)) throw bad(`a ${typeof output}, not an array`);

  let perText: number[][];
  if (count === 1 && output.length === dimensions && output.every((x) => typeof x === 'number')) {
    perText = [output as number[]];
  } else {
    if (output.length !== count) throw bad(`${output.length} entries`);
    perText = output.map((entry: unknown, i) => {
      if (!Array.isArray(entry) || entry.length === 0) throw bad(`an empty or non-array entry at ${i}`);
      if (entry.every((x) => typeof x === 'number')) return entry as number[];
      if (entry.every((x) => Array.isArray(x))) return poolTokens(entry as number[][], pooling, dimensions, bad);
      throw bad(`a mixed entry at ${i}`);
    });
  }

  return perText.map((vector, i) => {
    if (vector.length !== dimensions) throw bad(`a ${vector.length}-d vector at ${i}, expected ${dimensions}`);
    if (!vector.every(Number.isFinite)) throw bad(`a non-finite value at ${i}`);
    const unit = l2Normalize(Float32Array.from(vector));
    if (!unit) throw bad(`a zero vector at ${i}`);
    return unit;
  });
}

function poolTokens(tokens: number[][], pooling: TokenPooling, dimensions: number, bad: (why: string) => Error): number[] {
  for (const token of tokens) if (token.length !== dimensions) throw bad(`a ${token.length}-d token vector, expected ${dimensions}`);
  if (pooling === 'cls') return tokens[0] as number[];
  const sum = new Array<number>(dimensions).fill(0);
  for (const token of tokens) token.forEach((value, d) => (sum[d] = (sum[d] ?? 0) + value));
  return sum.map((value) => value / tokens.length);
}

/** A copy scaled to unit length, or undefined for a zero vector, which has no direction to keep. */
export function l2Normalize(vector: Float32Array): Float32Array | undefined {
  let sumOfSquares = 0;
  for (const value of vector) sumOfSquares += value * value;
  if (!(sumOfSquares > 0)) return undefined;
  const norm = Math.sqrt(sumOfSquares);
  return vector.map((value) => value / norm);
}
