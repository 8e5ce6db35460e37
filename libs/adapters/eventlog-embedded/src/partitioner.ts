/**
 * Kafka's default partitioner for keyed records: murmur2 (the variant in the Java client's Utils.murmur2, seed
 * 0x9747b28c) over the key's UTF-8 bytes, sign bit cleared, modulo the partition count. Using the same function
 * as Kafka (and kafkajs's DefaultPartitioner) means a log exported from embedded mode lands every key in the same
 * partition on a Kafka topic with the same partition count.
 */
const SEED = 0x9747b28c;
const M = 0x5bd1e995;
const R = 24;

/** Kafka's murmur2 as a signed 32-bit integer, the way the Java client returns it. */
export function murmur2(data: Uint8Array): number {
  const length = data.length;
  let h = (SEED ^ length) | 0;
  const whole = length & ~3;
  for (let i = 0; i < whole; i += 4) {
    let k = (data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24)) | 0;
    k = Math.imul(k, M);
    k ^= k >>> R;
    k = Math.imul(k, M);
    h = Math.imul(h, M) ^ k;
  }
  // The 1 to 3 tail bytes, as the reference's falling-through switch mixes them.
  const tail = length & 3;
  if (tail > 0) {
    if (tail === 3) h ^= data[whole + 2]! << 16;
    if (tail >= 2) h ^= data[whole + 1]! << 8;
    h ^= data[whole]!;
    h = Math.imul(h, M);
  }
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

export function partitionFor(key: string, partitions: number): number {
  return (murmur2(Buffer.from(key, 'utf8')) & 0x7fffffff) % partitions;
}
