import { expect } from 'chai';
import type { BatchHandler, Consumer, EventLog, LogRecord, OffsetPosition } from '@memory/ports';
import { records, type EventLogContext } from './event-log-contract-support.js';
import { expectCode, sleep, uniqueName, waitFor } from './wait-for.js';

interface Collector {
  consumer: Consumer;
  batches: LogRecord[][];
  all(): LogRecord[];
}

async function collect(
  log: EventLog,
  group: string,
  topic: string,
  opts: { maxBatchSize?: number; startFrom?: OffsetPosition; before?: BatchHandler } = {},
): Promise<Collector> {
  const batches: LogRecord[][] = [];
  const consumer = await log.consume({
    group,
    topics: [topic],
    ...(opts.maxBatchSize ? { maxBatchSize: opts.maxBatchSize } : {}),
    ...(opts.startFrom ? { startFrom: opts.startFrom } : {}),
    handler: async (batch) => {
      await opts.before?.(batch); // may throw: then the batch is not recorded as handled
      batches.push(batch);
    },
  });
  return { consumer, batches, all: () => batches.flat() };
}

/** Consumes until `count` records were handled, waits a moment for strays, stops, and returns what was handled. */
async function consumeCount(log: EventLog, group: string, topic: string, count: number, startFrom?: OffsetPosition): Promise<LogRecord[]> {
  const c = await collect(log, group, topic, startFrom ? { startFrom } : {});
  await waitFor(() => c.all().length >= count, `${count} records for group ${group}`);
  await sleep(100);
  await c.consumer.stop();
  return c.all();
}

const offsetsOf = (rs: LogRecord[]) => rs.map((r) => r.offset);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

export function describeEventLogGroups(ctx: EventLogContext): void {
  describe('consumer groups', () => {
    it('delivers every record in offset order per partition, one batch at a time per partition, within maxBatchSize', async () => {
      const topic = await ctx.topic(3);
      const appended = await ctx.log.append(topic, records(60, (i) => ({ key: `user-${i % 6}`, value: Buffer.from(String(i)) })));
      const inFlight = new Set<number>();
      let overlapped = false;
      const c = await collect(ctx.log, uniqueName('g'), topic, {
        maxBatchSize: 7,
        before: async (batch) => {
          const partition = batch[0]!.partition;
          if (inFlight.has(partition)) overlapped = true;
          inFlight.add(partition);
          await sleep(Math.random() * 5);
          inFlight.delete(partition);
        },
      });
      await waitFor(() => c.all().length >= 60, '60 records');
      await c.consumer.stop();
      expect(overlapped, 'two batches of one partition were handled at the same time').to.equal(false);
      for (const batch of c.batches) {
        expect(batch.length).to.be.within(1, 7);
        expect(new Set(batch.map((r) => r.partition)).size).to.equal(1);
        expect(offsetsOf(batch)).to.deep.equal(range(batch[0]!.offset, batch[0]!.offset + batch.length));
      }
      for (let partition = 0; partition < 3; partition++) {
        const expected = appended.filter((r) => r.partition === partition).map((r) => r.offset);
        expect(offsetsOf(c.all().filter((r) => r.partition === partition))).to.deep.equal(expected);
      }
    });

    it('delivers a rejected batch again with the same records, then commits it', async () => {
      const topic = await ctx.topic(1);
      await ctx.log.append(topic, records(5, (i) => ({ key: 'k', value: Buffer.from(String(i)) })));
      const attempts: number[][] = [];
      const group = uniqueName('g');
      const c = await collect(ctx.log, group, topic, {
        before: async (batch) => {
          attempts.push(offsetsOf(batch));
          if (attempts.length === 1) throw new Error('simulated handler failure');
        },
      });
      await waitFor(() => c.all().length >= 5, 'the batch to be handled after a failure');
      await c.consumer.stop();
      expect(attempts.length).to.be.at.least(2);
      expect(attempts[1]).to.deep.equal(attempts[0]);
      expect(offsetsOf(c.all())).to.deep.equal(range(0, 5));
      expect((await ctx.log.lag(group, topic))[0]).to.include({ committed: 5, end: 5 });
    });

    it('delivers the same records again after a crash before the commit', async () => {
      const topic = await ctx.topic(1);
      await ctx.log.append(topic, records(5, (i) => ({ key: 'k', value: Buffer.from(String(i)) })));
      const group = uniqueName('g');
      let seen = 0;
      const crashing = await ctx.log.consume({ group, topics: [topic], handler: async (batch) => { seen += batch.length; throw new Error('crash before commit'); } });
      await waitFor(() => seen > 0, 'the first delivery');
      await crashing.stop();
      const log = await ctx.restart();
      expect(offsetsOf(await consumeCount(log, group, topic, 5))).to.deep.equal(range(0, 5));
    });

    it('resumes after the last committed offset when the consumer restarts', async () => {
      const topic = await ctx.topic(1);
      const group = uniqueName('g');
      await ctx.log.append(topic, records(10, (i) => ({ key: 'k', value: Buffer.from(String(i)) })));
      expect(offsetsOf(await consumeCount(ctx.log, group, topic, 10))).to.deep.equal(range(0, 10));
      const log = await ctx.restart();
      await log.append(topic, records(5, (i) => ({ key: 'k', value: Buffer.from(String(10 + i)) })));
      expect(offsetsOf(await consumeCount(log, group, topic, 5))).to.deep.equal(range(10, 15));
    });

    it('starts a new group at the end with startFrom latest', async () => {
      const topic = await ctx.topic(2);
      await ctx.log.append(topic, records(6, (i) => ({ key: `k${i}`, value: Buffer.from('old') })));
      const c = await collect(ctx.log, uniqueName('g'), topic, { startFrom: { kind: 'latest' } });
      await sleep(100);
      await ctx.log.append(topic, records(3, (i) => ({ key: `k${i}`, value: Buffer.from('new') })));
      await waitFor(() => c.all().length >= 3, 'the new records');
      await sleep(100);
      await c.consumer.stop();
      expect(c.all().map((r) => r.value.toString())).to.deep.equal(['new', 'new', 'new']);
    });

    it('wakes an idle consumer soon after an append', async () => {
      const topic = await ctx.topic(1);
      const arrivals: number[] = [];
      const consumer = await ctx.log.consume({ group: uniqueName('g'), topics: [topic], handler: async () => { arrivals.push(Date.now()); } });
      const delays: number[] = [];
      for (let i = 0; i < 5; i++) {
        await sleep(30);
        const sent = Date.now();
        await ctx.log.append(topic, [{ key: 'k', value: Buffer.from(String(i)) }]);
        await waitFor(() => arrivals.length > i, 'the record to arrive');
        delays.push(arrivals[i]! - sent);
      }
      await consumer.stop();
      delays.sort((a, b) => a - b);
      expect(delays[2], `median append-to-handler delay (all: ${delays.join(', ')} ms)`).to.be.below(500);
    });

    it('stop() waits for the batch in flight and commits it', async () => {
      const topic = await ctx.topic(1);
      const group = uniqueName('g');
      await ctx.log.append(topic, records(3, () => ({ key: 'k', value: Buffer.from('x') })));
      let started = false;
      let finished = false;
      const consumer = await ctx.log.consume({
        group, topics: [topic],
        handler: async () => { started = true; await sleep(300); finished = true; },
      });
      await waitFor(() => started, 'the handler to start');
      await consumer.stop();
      expect(finished).to.equal(true);
      expect((await ctx.log.lag(group, topic))[0]).to.include({ committed: 3, end: 3 });
    });
  });

  describe('replay', () => {
    it('resetOffsets to earliest, an offset, a timestamp and latest moves what the group reads next', async () => {
      const topic = await ctx.topic(1);
      const group = uniqueName('g');
      await ctx.log.append(topic, records(5, (i) => ({ key: 'k', value: Buffer.from(String(i)) })));
      await sleep(20); // so the second half has later timestamps
      await ctx.log.append(topic, records(5, (i) => ({ key: 'k', value: Buffer.from(String(5 + i)) })));
      expect(offsetsOf(await consumeCount(ctx.log, group, topic, 10))).to.deep.equal(range(0, 10));

      await ctx.log.resetOffsets(group, topic, { kind: 'earliest' });
      expect(offsetsOf(await consumeCount(ctx.log, group, topic, 10))).to.deep.equal(range(0, 10));

      await ctx.log.resetOffsets(group, topic, { kind: 'offset', offset: 7 });
      expect(offsetsOf(await consumeCount(ctx.log, group, topic, 3))).to.deep.equal(range(7, 10));

      const stored = await ctx.log.read(topic, 0, 0, 10);
      const t = stored[5]!.timestamp;
      const expected = stored.filter((r) => r.timestamp >= t).map((r) => r.offset);
      await ctx.log.resetOffsets(group, topic, { kind: 'timestamp', timestamp: t });
      expect(offsetsOf(await consumeCount(ctx.log, group, topic, expected.length))).to.deep.equal(expected);

      await ctx.log.resetOffsets(group, topic, { kind: 'latest' });
      expect((await ctx.log.lag(group, topic))[0]).to.include({ committed: 10, end: 10 });
      await ctx.log.append(topic, [{ key: 'k', value: Buffer.from('10') }]);
      expect(offsetsOf(await consumeCount(ctx.log, group, topic, 1))).to.deep.equal([10]);
    });

    it('resetOffsets with one offset per partition moves each partition to its own position', async () => {
      const topic = await ctx.topic(3);
      const group = uniqueName('g');
      const appended = await ctx.log.append(topic, records(30, (i) => ({ key: `user-${i}`, value: Buffer.from('x') })));
      const ends = [0, 1, 2].map((p) => appended.filter((r) => r.partition === p).length);
      const positions = ends.map((end, p) => Math.min(end, p + 1));
      await ctx.log.resetOffsets(group, topic, { kind: 'offsets', byPartition: positions });
      expect((await ctx.log.lag(group, topic)).map((l) => l.committed)).to.deep.equal(positions);
      await expectCode(ctx.log.resetOffsets(group, topic, { kind: 'offsets', byPartition: [0] }), 'EVENTLOG.INVALID_OFFSET');
    });

    it('a timestamp after the last record moves the group to the end', async () => {
      const topic = await ctx.topic(1);
      const group = uniqueName('g');
      await ctx.log.append(topic, records(3, () => ({ key: 'k', value: Buffer.from('x') })));
      await ctx.log.resetOffsets(group, topic, { kind: 'timestamp', timestamp: Date.now() + 60_000 });
      expect((await ctx.log.lag(group, topic))[0]).to.include({ committed: 3, end: 3 });
    });
  });

  describe('lag', () => {
    it('reports the end offset of every partition and the committed offset once consumed', async () => {
      const topic = await ctx.topic(3);
      const group = uniqueName('g');
      const appended = await ctx.log.append(topic, records(12, (i) => ({ key: `user-${i}`, value: Buffer.from('x') })));
      const counts = [0, 1, 2].map((p) => appended.filter((r) => r.partition === p).length);
      const before = await ctx.log.lag(group, topic);
      expect(before.map((l) => [l.topic, l.partition, l.end])).to.deep.equal(counts.map((n, p) => [topic, p, n]));
      await consumeCount(ctx.log, group, topic, 12);
      const after = await ctx.log.lag(group, topic);
      expect(after.map((l) => l.committed)).to.deep.equal(counts);
      expect(after.map((l) => l.end)).to.deep.equal(counts);
    });
  });
}
