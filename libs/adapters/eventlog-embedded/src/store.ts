import { IF_EXISTS, open, type Database, type RootDatabase } from 'lmdb';
import { handleFailedCommits } from '@memory/platform';
import type { LogRecord } from '@memory/ports';
import { decodeRecord, encodeRecord, type StoredRecord } from './record-codec.js';

export interface TopicMeta {
  partitions: number;
  retentionMs?: number;
  createdAt: number;
}

type RecordKey = [topic: string, partition: number, offset: number];
type GroupKey = [group: string, topic: string, partition: number];

/** One append's records for one partition, at consecutive offsets from `first`. */
export interface PartitionRun {
  partition: number;
  first: number;
  records: StoredRecord[];
}

/**
 * The on-disk layout, in one LMDB environment:
 *   records  [topic, partition, offset] -> encoded record  (ordered-binary keys: a partition is one key range)
 *   topics   name -> TopicMeta
 *   offsets  [group, topic, partition] -> next offset the group will read (Kafka's committed-offset meaning)
 *
 * overlappingSync is turned off on purpose. With it (lmdb-js's default off Windows) a write's promise resolves when
 * the transaction is committed and visible, and durability comes later through `flushed`; without it LMDB fsyncs
 * inside the commit, so a resolved write is already on disk and readers never see a record that is not durable.
 * Writes issued in the same event turn share one transaction, which gives group commit for concurrent appends. That is
 * lmdb-js's eventTurnBatching, and it stays on: with it off, a failed commit was seen to resolve some of its writes.
 */
export class LogStore {
  private constructor(
    private readonly env: RootDatabase,
    private readonly records: Database<Buffer, RecordKey>,
    readonly topics: Database<TopicMeta, string>,
    private readonly offsets: Database<number, GroupKey>,
  ) {}

  static open(dir: string): LogStore {
    const env = handleFailedCommits(open({ path: dir, overlappingSync: false, maxDbs: 4 }));
    return new LogStore(
      env,
      env.openDB<Buffer, RecordKey>('records', { encoding: 'binary', keyEncoding: 'ordered-binary' }),
      env.openDB<TopicMeta, string>('topics', { encoding: 'json' }),
      env.openDB<number, GroupKey>('offsets', { encoding: 'json', keyEncoding: 'ordered-binary' }),
    );
  }

  /**
   * Writes one append, all of it or nothing: each partition's run lands only if the record before it is there (for
   * offset 0: if there is none yet). After a failed write, the appends already given the offsets after it find their
   * predecessor missing and are skipped in turn, so the log never gets a gap. Resolves false when skipped.
   */
  appendRecords(topic: string, runs: PartitionRun[]): Promise<boolean> {
    const conditions: Promise<boolean>[] = [];
    // Nested blocks: the writes happen only if every partition's condition holds.
    const write = (index: number): void => {
      const run = runs[index];
      if (!run) {
        for (const { partition, first, records } of runs) {
          records.forEach((record, i) => this.records.put([topic, partition, first + i], encodeRecord(record)));
        }
        return;
      }
      const next = () => write(index + 1);
      conditions.push(run.first === 0 ? this.records.ifNoExists([topic, run.partition, 0], next) : this.records.ifVersion([topic, run.partition, run.first - 1], IF_EXISTS, next));
    };
    write(0);
    return Promise.all(conditions).then((met) => met.every(Boolean));
  }

  firstOffset(topic: string, partition: number): number | undefined {
    for (const key of this.records.getKeys({ start: [topic, partition], end: [topic, partition + 1], limit: 1 })) return key[2];
    return undefined;
  }

  /** Offset after the newest record, 0 for an empty partition. */
  nextOffset(topic: string, partition: number): number {
    for (const key of this.records.getKeys({ start: [topic, partition + 1], end: [topic, partition], reverse: true, limit: 1 })) return key[2] + 1;
    return 0;
  }

  last(topic: string, partition: number): { offset: number; timestamp: number } | undefined {
    for (const { key, value } of this.records.getRange({ start: [topic, partition + 1], end: [topic, partition], reverse: true, limit: 1 })) {
      return { offset: key[2], timestamp: decodeRecord(value).timestamp };
    }
    return undefined;
  }

  read(topic: string, partition: number, fromOffset: number, maxRecords: number): LogRecord[] {
    const out: LogRecord[] = [];
    for (const { key, value } of this.records.getRange({ start: [topic, partition, fromOffset], end: [topic, partition + 1], limit: maxRecords })) {
      const record = decodeRecord(value);
      out.push({ topic, partition, offset: key[2], key: record.key, value: record.value, timestamp: record.timestamp, headers: record.headers });
    }
    return out;
  }

  timestampAt(topic: string, partition: number, offset: number): number | undefined {
    const value = this.records.get([topic, partition, offset]);
    return value === undefined ? undefined : decodeRecord(value).timestamp;
  }

  committed(group: string, topic: string, partition: number): number | undefined {
    return this.offsets.get([group, topic, partition]);
  }

  commit(group: string, topic: string, partition: number, nextOffset: number): Promise<boolean> {
    return this.offsets.put([group, topic, partition], nextOffset);
  }

  close(): Promise<void> {
    return this.env.close();
  }
}
