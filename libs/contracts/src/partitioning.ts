/**
 * Keys to partitions, in both event logs, the way Kafka's Java producer does it (and kafkajs's DefaultPartitioner):
 * murmur2 of the key's UTF-8 bytes with the sign bit cleared, modulo the partition count. The same key always lands
 * in the same partition of a topic, so its records are consumed in append order, and a log exported from the
 * embedded mode into Kafka keeps every record at its partition and offset.
 */
export function partitionFor(key: string, partitions: number): number {
  if (!Number.isInteger(partitions) || partitions < 1) throw new RangeError(`partition count must be a positive whole number, got ${partitions}`);
  return (murmur2(Buffer.from(key, 'utf8')) & 0x7fffffff) % partitions;
}

const MULTIPLIER = 0x5bd1e995;
const SHIFT = 24;
const SEED = 0x9747b28c;

/** MurmurHash2, 32-bit, in the variant of Kafka's Utils.murmur2 (fixed seed), as a signed 32-bit integer. */
export function murmur2(bytes: Uint8Array): number {
  const n = bytes.length;
  let hash = SEED ^ n;
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    let k = bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
    k = Math.imul(k, MULTIPLIER);
    k ^= k >>> SHIFT;
    k = Math.imul(k, MULTIPLIER);
    hash = Math.imul(hash, MULTIPLIER) ^ k;
  }
  const rest = n - i;
  if (rest > 0) {
    // Up to three trailing bytes, highest first, then one multiply.
    for (let r = rest - 1; r >= 0; r--) hash ^= bytes[i + r]! << (8 * r);
    hash = Math.imul(hash, MULTIPLIER);
  }
  hash ^= hash >>> 13;
  hash = Math.imul(hash, MULTIPLIER);
  hash ^= hash >>> 15;
  return hash | 0;
}
