import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Vectors of the dense baseline kept in a --keep folder. They change only with the texts or the model, not with
 * the search code a re-run is for, and embedding them is the slowest part of a re-run. The key is a hash of the
 * model and every text, so a stale file is never used.
 */
export function vectorCacheKey(model: string, purpose: string, texts: readonly string[]): string {
  const hash = createHash('sha256').update(`${model}\u0000${purpose}`);
  for (const text of texts) hash.update('\u0000').update(text);
  return hash.digest('hex');
}

interface CacheFile {
  key: string;
  count: number;
  dimensions: number;
  /** base64 of the vectors' float32 bytes, one after the other. */
  data: string;
}

export function readCachedVectors(path: string, key: string): Float32Array[] | null {
  if (!existsSync(path)) return null;
  try {
    const file = JSON.parse(readFileSync(path, 'utf8')) as CacheFile;
    if (file.key !== key) return null;
    const bytes = Buffer.from(file.data, 'base64');
    // Copied out, since a Buffer may start at an offset a Float32Array cannot.
    const all = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    if (all.length !== file.count * file.dimensions) return null;
    return Array.from({ length: file.count }, (_, i) => all.slice(i * file.dimensions, (i + 1) * file.dimensions));
  } catch {
    return null;
  }
}

export function writeCachedVectors(path: string, key: string, vectors: readonly Float32Array[]): void {
  const dimensions = vectors[0]?.length ?? 0;
  const all = new Float32Array(vectors.length * dimensions);
  vectors.forEach((vector, i) => all.set(vector, i * dimensions));
  const file: CacheFile = { key, count: vectors.length, dimensions, data: Buffer.from(all.buffer).toString('base64') };
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.tmp`, JSON.stringify(file));
  renameSync(`${path}.tmp`, path);
}
