import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@memory/platform';
import { describeEventLogContract, expectCode, sleep, uniqueName, waitFor } from '@memory/testing';
import { createEmbeddedEventLog } from './index.js';

// Handler failures are expected in the suite (redelivery tests) and logged as warnings; keep the output readable.
const logger = createLogger({ component: 'eventlog-embedded' }, 'error');

describeEventLogContract('eventlog-embedded', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'eventlog-contract-'));
  const open = () => createEmbeddedEventLog({ dir, logger });
  return {
    log: await open(),
    reopen: open,
    cleanup: () => rm(dir, { recursive: true, force: true }),
    childProcess: { module: '@memory/eventlog-embedded', exportName: 'createEmbeddedEventLog', options: { dir } },
  };
});

describe('eventlog-embedded specifics', () => {
  let dir: string;
  beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'eventlog-embedded-'))));
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('refuses a second open of the same directory with EVENTLOG.DIR_LOCKED, and allows it after close', async () => {
    const log = await createEmbeddedEventLog({ dir, logger });
    await expectCode(createEmbeddedEventLog({ dir, logger }), 'EVENTLOG.DIR_LOCKED');
    await log.close();
    await (await createEmbeddedEventLog({ dir, logger })).close();
  });

  it('rejects a second consumer of the same group and topic with EVENTLOG.GROUP_BUSY, and refuses a reset while it runs', async () => {
    const log = await createEmbeddedEventLog({ dir, logger });
    try {
      await log.ensureTopics([{ name: 't', partitions: 2 }]);
      const first = await log.consume({ group: 'g', topics: ['t'], handler: async () => {} });
      await expectCode(log.consume({ group: 'g', topics: ['t'], handler: async () => {} }), 'EVENTLOG.GROUP_BUSY');
      await expectCode(log.resetOffsets('g', 't', { kind: 'earliest' }), 'EVENTLOG.GROUP_BUSY');
      const otherGroup = await log.consume({ group: 'h', topics: ['t'], handler: async () => {} });
      await first.stop();
      const again = await log.consume({ group: 'g', topics: ['t'], handler: async () => {} });
      await Promise.all([again.stop(), otherGroup.stop()]);
    } finally {
      await log.close();
    }
  });

  it('wakes a consumer within a few milliseconds of an append (in-process notification, not polling)', async () => {
    const log = await createEmbeddedEventLog({ dir, logger, pollIntervalMs: 10_000 });
    try {
      const topic = uniqueName('fresh');
      await log.ensureTopics([{ name: topic, partitions: 4 }]);
      const arrivals: number[] = [];
      const consumer = await log.consume({ group: 'g', topics: [topic], handler: async () => { arrivals.push(performance.now()); } });
      const delays: number[] = [];
      for (let i = 0; i < 9; i++) {
        await sleep(10);
        const sent = performance.now();
        await log.append(topic, [{ key: `k${i}`, value: Buffer.from('x') }]);
        await waitFor(() => arrivals.length > i, 'the record');
        delays.push(arrivals[i]! - sent);
      }
      await consumer.stop();
      delays.sort((a, b) => a - b);
      expect(delays[4], `median delay from append start to handler, ms (all: ${delays.map((d) => d.toFixed(1)).join(', ')})`).to.be.below(50);
    } finally {
      await log.close();
    }
  });

  it('never lets timestamps run backwards in a partition, even when the wall clock does', async () => {
    const log = await createEmbeddedEventLog({ dir, logger });
    const realNow = Date.now;
    try {
      await log.ensureTopics([{ name: 't', partitions: 1 }]);
      await log.append('t', [{ key: 'k', value: Buffer.from('1') }]);
      Date.now = () => realNow() - 3_600_000; // the clock is set back an hour
      await log.append('t', [{ key: 'k', value: Buffer.from('2') }]);
      Date.now = realNow;
      const [a, b] = await log.read('t', 0, 0, 2);
      expect(b!.timestamp).to.be.at.least(a!.timestamp);
    } finally {
      Date.now = realNow;
      await log.close();
    }
  });

  it('validates options and topic specs before touching the disk', async () => {
    await expectCode(createEmbeddedEventLog({ dir: '' }), 'CONFIG.INVALID');
    await expectCode(createEmbeddedEventLog({ dir, pollIntervalMs: -1 }), 'CONFIG.INVALID');
    const log = await createEmbeddedEventLog({ dir, logger, defaultPartitions: 3 });
    try {
      await expectCode(log.ensureTopics([{ name: 'bad', partitions: 1.5 }]), 'EVENTLOG.INVALID_TOPIC');
      await log.ensureTopics([{ name: 'defaulted', partitions: 0 }]);
      expect(await log.partitionsOf('defaulted')).to.equal(3);
      await expectCode(log.append('defaulted', [{ key: 'k', value: 'not a buffer' as unknown as Buffer }]), 'EVENTLOG.INVALID_RECORD');
      await expectCode(log.read('defaulted', 3, 0, 1), 'EVENTLOG.UNKNOWN_PARTITION');
    } finally {
      await log.close();
    }
  });
});
