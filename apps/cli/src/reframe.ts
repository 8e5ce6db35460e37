import { SEALED_MAGIC_BYTE } from '@memory/contracts';

const MAGIC_BYTE = 0;
const HEADER_BYTES = 5;

/**
 * Rewrites the schema id of a Confluent wire-format record (magic byte, 4-byte id, Avro body) and leaves the body
 * untouched: moving a record between registries must not re-encode it. A sealed record (our frame, magic byte 1)
 * has the same header and moves the same way; its body stays sealed.
 */
export async function reframe(value: Buffer, targetIdOf: (sourceId: number) => Promise<number>): Promise<Buffer> {
  if (value.length < HEADER_BYTES || (value.readUInt8(0) !== MAGIC_BYTE && value.readUInt8(0) !== SEALED_MAGIC_BYTE)) throw new Error('not a Confluent wire-format record');
  const copy = Buffer.from(value);
  copy.writeUInt32BE(await targetIdOf(value.readUInt32BE(1)), 1);
  return copy;
}
