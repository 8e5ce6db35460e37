import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RootDatabase } from 'lmdb';
import { createLogger, MemoryServiceError } from '@memory/platform';
import type { EventLog, LogRecord } from '@memory/ports';
import { failedCommitOf, transactionPoisoner, waitFor } from '@memory/testing';
import { createEmbeddedEventLog } from './index.js';
import { LogStore } from './store.js';

// Every injected failure is logged as an error by design; keep the output readable.
const logger = createLogger({ component: 'eventlog-embedded' }, 'silent');

/** The log's own environment: only a write queued there lands in the same transaction as the log's writes. */
const envOf = (log: EventLog): RootDatabase => (log as unknown as { store: { env: RootDatabase } }).store.env;

async function readPartition(log: EventLog, topic: string, partition: number): Promise<LogRecord[]> {
  return log.read(topic, partition, 0, 1_000_000);
}

describe('eventlog-embedded after a failed write', function () {
  this.timeout(60_000);
  let dir: string;
  let log: EventLog;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'eventlog-write-failure-'));
    log = await createEmbeddedEventLog({ dir, logger });
  });
  afterEach(async () => {
    await log.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('appends again right after a failed transaction, with no gap and no reused offset, and consumers get every record once', async () => {
    const topic = 'failing';
    await log.ensureTopics([{ name: topic, partitions: 4 }]);
    const delivered: LogRecord[] = [];
    const consumer = await log.consume({ group: 'g', topics: [topic], handler: async (batch) => { delivered.push(...batch); } });
    const poison = await transactionPoisoner(envOf(log));
    const failures: unknown[] = [];
    const producers = 16;
    const perProducer = 30;
    let poisoned: Promise<unknown> | undefined;
    // Producers retry a failed append, as the pipeline's stages do; producer 0 poisons the transaction of its 10th.
    await Promise.all(Array.from({ length: producers }, async (_, producer) => {
      for (let seq = 0; seq < perProducer; seq++) {
        for (let attempt = 0; ; attempt++) {
          const appended = log.append(topic, [{ key: `p${producer}`, value: Buffer.from(`p${producer}:${seq}`) }]);
          if (producer === 0 && seq === 10 && attempt === 0) poisoned = poison();
          try {
            await appended;
            break;
          } catch (error) {
            failures.push(error);
            if (attempt >= 20) throw error;
          }
        }
      }
    }));
    expect(await poisoned).to.be.instanceOf(Error);
    expect(failures, 'appends that failed with the poisoned transaction').to.not.be.empty;
    for (const failure of failures) expect(failure).to.be.instanceOf(MemoryServiceError).and.include({ code: 'EVENTLOG.STORAGE', retriable: true });

    const expected = Array.from({ length: producers * perProducer }, (_, i) => `p${Math.floor(i / perProducer)}:${i % perProducer}`).sort();
    const stored: string[] = [];
    for (let partition = 0; partition < 4; partition++) {
      const records = await readPartition(log, topic, partition);
      expect(records.map((r) => r.offset), `offsets of partition ${partition}`).to.deep.equal(records.map((_, i) => i));
      stored.push(...records.map((r) => r.value.toString()));
    }
    expect(stored.sort(), 'every record stored once').to.deep.equal(expected);
    await waitFor(() => delivered.length >= expected.length, 'every record delivered');
    await consumer.stop();
    expect(delivered.map((r) => r.value.toString()).sort(), 'every record delivered once').to.deep.equal(expected);
  });

  it('fails an append whose commit failed, leaves no rejection unhandled, and appends again', async () => {
    await log.ensureTopics([{ name: 't', partitions: 1 }]);
    const error = await failedCommitOf(envOf(log), () => log.append('t', [{ key: 'k', value: Buffer.from('refused') }]));
    expect(error).to.be.instanceOf(MemoryServiceError).and.include({ code: 'EVENTLOG.STORAGE', retriable: true });
    const [next] = await log.append('t', [{ key: 'k', value: Buffer.from('after') }]);
    expect(next).to.include({ partition: 0, offset: 0 });
    expect((await readPartition(log, 't', 0)).map((r) => r.value.toString())).to.deep.equal(['after']);
  });

  it('fails an append on a full disk with the retriable EVENTLOG.DISK_FULL, and the next append continues the offsets', async () => {
    await log.ensureTopics([{ name: 't', partitions: 1 }]);
    await log.append('t', [{ key: 'k', value: Buffer.from('before') }]);
    // How lmdb-js rejects a write of a commit that hit ENOSPC: a bare "Commit failed", the cause in commitError.
    const appendRecords = LogStore.prototype.appendRecords;
    LogStore.prototype.appendRecords = function () {
      LogStore.prototype.appendRecords = appendRecords;
      const cause = Object.assign(new Error('No space left on device: Attempting to write page at position 1990656, size 4096, blocks 1'), { code: 28 });
      return Promise.reject(Object.assign(new Error('Commit failed (see commitError for details)'), { commitError: Promise.reject(cause) }));
    };
    try {
      const error = await log.append('t', [{ key: 'k', value: Buffer.from('refused') }]).then(() => expect.fail('the append succeeded'), (e: unknown) => e);
      expect(error).to.be.instanceOf(MemoryServiceError).and.include({ code: 'EVENTLOG.DISK_FULL', retriable: true });
    } finally {
      LogStore.prototype.appendRecords = appendRecords;
    }
    const [next] = await log.append('t', [{ key: 'k', value: Buffer.from('after') }]);
    expect(next).to.include({ partition: 0, offset: 1 });
    expect((await readPartition(log, 't', 0)).map((r) => r.value.toString())).to.deep.equal(['before', 'after']);
  });
});

describe('eventlog-embedded store', () => {
  let dir: string;
  let store: LogStore;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'eventlog-store-'));
    store = LogStore.open(dir);
  });
  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  const run = (partition: number, first: number, ...values: string[]) => ({
    partition,
    first,
    records: values.map((value) => ({ timestamp: 1, key: 'k', headers: {}, value: Buffer.from(value) })),
  });

  it('skips an append, in every partition, whose predecessor is missing or whose first offset is taken', async () => {
    expect(await store.appendRecords('t', [run(0, 0, 'a', 'b'), run(1, 0, 'c')])).to.equal(true);
    // Partition 1 would get a gap at offset 1: nothing of the append lands, partition 0's part neither.
    expect(await store.appendRecords('t', [run(0, 2, 'x'), run(1, 2, 'y')])).to.equal(false);
    expect(await store.appendRecords('t', [run(1, 0, 'z')])).to.equal(false);
    expect(store.read('t', 0, 0, 10).map((r) => r.value.toString())).to.deep.equal(['a', 'b']);
    expect(store.read('t', 1, 0, 10).map((r) => r.value.toString())).to.deep.equal(['c']);
    expect(await store.appendRecords('t', [run(0, 2, 'x'), run(1, 1, 'y')])).to.equal(true);
    expect([store.nextOffset('t', 0), store.nextOffset('t', 1), store.nextOffset('t', 2)]).to.deep.equal([3, 2, 0]);
  });
});
