import { MemoryServiceError } from '@memory/platform';

/**
 * The stored form of one record (the LMDB key already holds topic, partition and offset). A leading format byte
 * leaves room for later formats, e.g. payloads encrypted with a per-user key that is destroyed on erasure.
 *
 *   u8 format (1) | f64 timestamp | u32 key length | key utf8 | u32 headers length | headers JSON utf8 | value
 */
const FORMAT_PLAIN = 1;

export interface StoredRecord {
  timestamp: number;
  key: string;
  headers: Record<string, string>;
  value: Buffer;
}

export function encodeRecord(record: StoredRecord): Buffer {
  const key = Buffer.from(record.key, 'utf8');
  const headers = Buffer.from(JSON.stringify(record.headers), 'utf8');
  const out = Buffer.allocUnsafe(1 + 8 + 4 + key.length + 4 + headers.length + record.value.length);
  let at = out.writeUInt8(FORMAT_PLAIN, 0);
  at = out.writeDoubleBE(record.timestamp, at);
  at = out.writeUInt32BE(key.length, at);
  at += key.copy(out, at);
  at = out.writeUInt32BE(headers.length, at);
  at += headers.copy(out, at);
  record.value.copy(out, at);
  return out;
}

export function decodeRecord(stored: Uint8Array): StoredRecord {
  // Copy: lmdb-js may hand out views into memory it reuses, and consumers keep values around.
  const data = Buffer.from(stored);
  const format = data.readUInt8(0);
  if (format !== FORMAT_PLAIN) throw new MemoryServiceError('EVENTLOG.CORRUPT_RECORD', `unknown record format ${format}`);
  let at = 1;
  const timestamp = data.readDoubleBE(at);
  at += 8;
  const keyLength = data.readUInt32BE(at);
  at += 4;
  const key = data.toString('utf8', at, at + keyLength);
  at += keyLength;
  const headersLength = data.readUInt32BE(at);
  at += 4;
  const headers = JSON.parse(data.toString('utf8', at, at + headersLength)) as Record<string, string>;
  at += headersLength;
  return { timestamp, key, headers, value: data.subarray(at) };
}
