import { expect } from 'chai';
import type { BatchHandler, Consumer, LogRecord } from '@memory/ports';
import { records, type EventLogContext } from './event-log-contract-support.js';
import { sleep, uniqueName, waitFor } from './wait-for.js';

const offsetsOf = (rs: LogRecord[]) => rs.map((r) => r.offset);

/** A gate a handler can wait on until the test opens it. */
function gate(): { wait: Promise<void>; open(): void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

/**
 * batchesInFlight: several batches of one partition handed over at once, committed in order, redelivered from the
 * first failed one, and all awaited by stop(). Each test appends before the consumer starts, so the records are
 * there to be cut into batches at once (a Kafka fetch holds them all).
 */
export function describeEventLogInFlight(ctx: EventLogContext): void {
  describe('batches in flight (batchesInFlight > 1)', () => {
    const consume = (group: string, topic: string, handler: BatchHandler, batchesInFlight: number): Promise<Consumer> =>
      ctx.log.consume({ group, topics: [topic], handler, maxBatchSize: 2, batchesInFlight });
    const committed = async (group: string, topic: string) => (await ctx.log.lag(group, topic))[0]!.committed;

    it('hands over later batches while an earlier one is in flight, and commits none of them past it', async () => {
      const topic = await ctx.topic(1);
      const group = uniqueName('g');
      await ctx.log.append(topic, records(6, (i) => ({ key: `k${i % 3}`, value: Buffer.from(String(i)) })));
      const first = gate();
      const handled: number[][] = [];
      const consumer = await consume(group, topic, async (batch) => {
        if (batch[0]!.offset === 0) await first.wait;
        handled.push(offsetsOf(batch));
      }, 3);
      try {
        await waitFor(() => handled.length === 2, 'the second and third batches while the first is in flight', 10_000);
        expect(handled).to.deep.equal([[2, 3], [4, 5]]);
        await sleep(200);
        expect(await committed(group, topic), 'nothing is committed past the batch still in flight').to.equal(0);
        first.open();
        await waitFor(async () => (await committed(group, topic)) === 6, 'the commit of all six records once the first batch ends', 10_000);
      } finally {
        first.open();
        await consumer.stop();
      }
      expect(handled[2]).to.deep.equal([0, 1]);
    });

    it('delivers a rejected batch again, with every batch after it, once the batches in flight settled', async () => {
      const topic = await ctx.topic(1);
      const group = uniqueName('g');
      await ctx.log.append(topic, records(6, (i) => ({ key: `k${i % 3}`, value: Buffer.from(String(i)) })));
      let failing = true;
      const tail = gate();
      const deliveries: number[][] = [];
      const consumer = await consume(group, topic, async (batch) => {
        deliveries.push(offsetsOf(batch));
        if (batch[0]!.offset === 2 && failing) throw new Error('simulated handler failure');
        // The batch after the failing one is still in flight when that one fails: nothing may come again before it ends.
        if (batch[0]!.offset === 4 && deliveries.filter((d) => d[0] === 4).length === 1) await tail.wait;
      }, 3);
      try {
        await waitFor(() => deliveries.length === 3, 'the three batches', 10_000);
        await sleep(300);
        expect(deliveries, 'nothing delivered again while a later batch is in flight').to.have.length(3);
        tail.open();
        await waitFor(() => deliveries.filter((d) => d[0] === 2).length >= 2, 'the failed batch again', 10_000);
        expect(await committed(group, topic), 'the commit stops before the failed batch').to.equal(2);
        failing = false;
        await waitFor(async () => (await committed(group, topic)) === 6, 'the commit of all six records', 10_000);
      } finally {
        tail.open();
        await consumer.stop();
      }
      const again = deliveries.slice(3);
      expect(again.filter((d) => d[0] === 0), 'the batch before the failed one is not delivered again').to.deep.equal([]);
      expect(again.filter((d) => d[0] === 2)[0]).to.deep.equal([2, 3]);
      expect(again.flat(), 'the batch after the failed one comes again although it resolved').to.include.members([4, 5]);
    });

    it('stop() waits for every batch in flight and commits them all', async () => {
      const topic = await ctx.topic(1);
      const group = uniqueName('g');
      await ctx.log.append(topic, records(6, (i) => ({ key: `k${i}`, value: Buffer.from('x') })));
      const started: number[] = [];
      const finished: number[] = [];
      const allStarted = gate();
      const consumer = await consume(group, topic, async (batch) => {
        started.push(batch[0]!.offset);
        if (started.length === 3) allStarted.open();
        await allStarted.wait;
        // The earliest batch ends last, so stop() has later batches resolved and the first still running.
        await sleep(500 - 150 * started.indexOf(batch[0]!.offset));
        finished.push(batch[0]!.offset);
      }, 3);
      try {
        await waitFor(() => started.length === 3, 'three batches in flight', 10_000);
      } finally {
        allStarted.open();
        await consumer.stop();
      }
      expect(finished).to.deep.equal([4, 2, 0]);
      expect(await committed(group, topic)).to.equal(6);
    });
  });
}
