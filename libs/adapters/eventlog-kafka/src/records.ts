import { MemoryServiceError } from '@memory/platform';
import type { LogRecord, OutgoingRecord } from '@memory/ports';
import type { IHeaders, Message } from 'kafkajs';
import { toOffset } from './positions.js';

/** A record as kafkajs decodes it from a fetch (consumer batches and raw fetches alike). */
export interface FetchedMessage {
  offset: string;
  timestamp: string;
  key: Buffer | null;
  value: Buffer | null;
  headers?: IHeaders;
}

export function toLogRecord(topic: string, partition: number, message: FetchedMessage): LogRecord {
  return {
    topic,
    partition,
    offset: toOffset(message.offset),
    key: message.key ? message.key.toString('utf8') : '',
    value: message.value ?? Buffer.alloc(0),
    timestamp: Number(message.timestamp),
    headers: headersToStrings(message.headers),
  };
}

/** Kafka headers are bytes and may repeat; ours are one string per name, so a repeated name keeps its last value. */
export function headersToStrings(headers: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  for (const [name, raw] of Object.entries(headers)) {
    const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
    if (value === undefined) continue;
    out[name] = Buffer.isBuffer(value) ? value.toString('utf8') : String(value);
  }
  return out;
}

export function validateRecord(topic: string, record: OutgoingRecord): void {
  if (typeof record?.key !== 'string') throw new MemoryServiceError('EVENTLOG.INVALID_RECORD', `a record for ${topic} needs a string key`);
  if (!Buffer.isBuffer(record.value)) throw new MemoryServiceError('EVENTLOG.INVALID_RECORD', `a record for ${topic} needs a Buffer value`);
  if (record.headers !== undefined) {
    for (const [name, value] of Object.entries(record.headers)) {
      if (typeof value !== 'string') throw new MemoryServiceError('EVENTLOG.INVALID_RECORD', `header ${name} of a record for ${topic} must be a string`);
    }
  }
}

export function toMessage(record: OutgoingRecord, partition: number): Message & { partition: number } {
  return { key: record.key, value: record.value, headers: { ...record.headers }, partition };
}
