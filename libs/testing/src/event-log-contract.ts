import { expect } from 'chai';
import type { EventLog } from '@memory/ports';
import { describeEventLogDurability } from './event-log-contract-durability.js';
import { describeEventLogGroups } from './event-log-contract-groups.js';
import { describeEventLogInFlight } from './event-log-contract-in-flight.js';
import { readAll, records, type EventLogContext, type EventLogHarness } from './event-log-contract-support.js';
import { expectCode, uniqueName } from './wait-for.js';

export type { EventLogHarness } from './event-log-contract-support.js';

export type EventLogFactory = () => Promise<EventLogHarness>;

/**
 * The behaviour every EventLog adapter must show, embedded or Kafka. Names are unique per test so the suite can
 * run against a shared broker; nothing here looks inside an adapter.
 */
export function describeEventLogContract(adapterName: string, factory: EventLogFactory): void {
  describe(`EventLog contract: ${adapterName}`, function () {
    this.timeout(30_000);
    let harness: EventLogHarness | undefined;
    let current: EventLog | undefined;

    const ctx: EventLogContext = {
      get log() {
        if (!current) throw new Error('no event log open');
        return current;
      },
      get harness() {
        if (!harness) throw new Error('no harness');
        return harness;
      },
      async restart() {
        await ctx.closeCurrent();
        return ctx.reopen();
      },
      async closeCurrent() {
        await current?.close();
        current = undefined;
      },
      async reopen() {
        current = await ctx.harness.reopen();
        return current;
      },
      async topic(partitions) {
        const name = uniqueName('contract');
        await ctx.log.ensureTopics([{ name, partitions }]);
        return name;
      },
    };

    beforeEach(async () => {
      harness = await factory();
      current = harness.log;
    });

    afterEach(async () => {
      await current?.close();
      current = undefined;
      await harness?.cleanup();
      harness = undefined;
    });

    describe('topics', () => {
      it('ensureTopics is idempotent and never repartitions an existing topic', async () => {
        const name = uniqueName('contract');
        await ctx.log.ensureTopics([{ name, partitions: 3 }]);
        await ctx.log.ensureTopics([{ name, partitions: 3 }]);
        expect(await ctx.log.partitionsOf(name)).to.equal(3);
        await ctx.log.ensureTopics([{ name, partitions: 5 }]);
        expect(await ctx.log.partitionsOf(name)).to.equal(3);
      });

      it('fails with EVENTLOG.UNKNOWN_TOPIC for a topic that was never created', async () => {
        const missing = uniqueName('missing');
        await expectCode(ctx.log.append(missing, [{ key: 'k', value: Buffer.from('v') }]), 'EVENTLOG.UNKNOWN_TOPIC');
        await expectCode(ctx.log.partitionsOf(missing), 'EVENTLOG.UNKNOWN_TOPIC');
        await expectCode(ctx.log.consume({ group: uniqueName('g'), topics: [missing], handler: async () => {} }), 'EVENTLOG.UNKNOWN_TOPIC');
      });
    });

    describe('append and read', () => {
      it('gives each partition offsets from 0 up, one by one, and reads back what was appended', async () => {
        const topic = await ctx.topic(4);
        const before = Date.now();
        const sent = records(40, (i) => ({ key: `user-${i % 7}`, value: Buffer.from(`value-${i}`), headers: { seq: String(i), kind: 'test' } }));
        const results = [...(await ctx.log.append(topic, sent.slice(0, 25))), ...(await ctx.log.append(topic, sent.slice(25)))];
        const after = Date.now();
        expect(results).to.have.length(40);
        for (let partition = 0; partition < 4; partition++) {
          const mine = results.map((r, i) => ({ ...r, i })).filter((r) => r.partition === partition);
          expect(mine.map((r) => r.offset)).to.deep.equal(mine.map((_, n) => n));
          const stored = await ctx.log.read(topic, partition, 0, 1_000);
          expect(stored).to.have.length(mine.length);
          stored.forEach((record, n) => {
            const original = sent[mine[n]!.i]!;
            expect(record).to.include({ topic, partition, offset: n, key: original.key });
            expect(record.value.equals(original.value)).to.equal(true);
            expect(record.headers).to.deep.equal(original.headers);
            expect(record.timestamp).to.be.within(before - 5_000, after + 5_000);
            if (n > 0) expect(record.timestamp).to.be.at.least(stored[n - 1]!.timestamp);
          });
        }
      });

      it('puts every record of a key in the same partition', async () => {
        const topic = await ctx.topic(8);
        const results = await ctx.log.append(topic, records(80, (i) => ({ key: `tenant/user-${i % 10}`, value: Buffer.from([i]) })));
        const partitionOfKey = new Map<string, number>();
        results.forEach((r, i) => {
          const key = `tenant/user-${i % 10}`;
          expect(r.partition).to.be.within(0, 7);
          if (partitionOfKey.has(key)) expect(r.partition, key).to.equal(partitionOfKey.get(key));
          partitionOfKey.set(key, r.partition);
        });
        expect(new Set(partitionOfKey.values()).size, 'ten keys over eight partitions use more than one').to.be.greaterThan(1);
      });

      it('keeps each key in append order when many producers append at once', async () => {
        const topic = await ctx.topic(4);
        const keys = Array.from({ length: 12 }, (_, k) => `key-${k}`);
        await Promise.all(keys.map(async (key) => {
          for (let seq = 0; seq < 15; seq++) await ctx.log.append(topic, [{ key, value: Buffer.from(String(seq)) }]);
        }));
        const seen = new Map<string, number[]>();
        for (const record of await readAll(ctx.log, topic)) seen.set(record.key, [...(seen.get(record.key) ?? []), Number(record.value.toString())]);
        for (const key of keys) expect(seen.get(key), key).to.deep.equal(Array.from({ length: 15 }, (_, i) => i));
      });

      it('read honours fromOffset and maxRecords', async () => {
        const topic = await ctx.topic(1);
        await ctx.log.append(topic, records(10, (i) => ({ key: 'k', value: Buffer.from(String(i)) })));
        const page = await ctx.log.read(topic, 0, 3, 4);
        expect(page.map((r) => r.offset)).to.deep.equal([3, 4, 5, 6]);
        expect(await ctx.log.read(topic, 0, 10, 5)).to.deep.equal([]);
        expect(await ctx.log.append(topic, [])).to.deep.equal([]);
      });

      it('rejects calls after close with EVENTLOG.CLOSED, and close can be called twice', async () => {
        const topic = await ctx.topic(1);
        await ctx.log.close();
        await ctx.log.close();
        await expectCode(ctx.log.append(topic, [{ key: 'k', value: Buffer.from('v') }]), 'EVENTLOG.CLOSED');
      });
    });

    describeEventLogDurability(ctx);
    describeEventLogGroups(ctx);
    describeEventLogInFlight(ctx);
  });
}
