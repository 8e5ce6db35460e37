import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@memory/platform';
import { createEmbeddedEventLog } from '@memory/eventlog-embedded';
import { describeEventLogContract, readAll } from '@memory/testing';
import { namespacedEventLog } from './namespaced-event-log.js';

const logger = createLogger({ component: 'namespaced-event-log' }, 'error');

// The decorator must behave as an event log in every respect, so it runs the same contract as the adapters.
describeEventLogContract('namespaced (over eventlog-embedded)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'namespaced-contract-'));
  const open = async () => namespacedEventLog(await createEmbeddedEventLog({ dir, logger }), 'tenant-a');
  return { log: await open(), reopen: open, cleanup: () => rm(dir, { recursive: true, force: true }) };
});

describe('namespacedEventLog', () => {
  let dir: string;
  beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'namespaced-'))));
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('keeps two namespaces on one log apart: topics, records and group offsets', async () => {
    const log = await createEmbeddedEventLog({ dir, logger });
    try {
      const [a, b] = [namespacedEventLog(log, 'a'), namespacedEventLog(log, 'b')];
      await a.ensureTopics([{ name: 'events', partitions: 1 }]);
      await b.ensureTopics([{ name: 'events', partitions: 1 }]);
      await a.append('events', [{ key: 'k', value: Buffer.from('from a') }]);
      expect(await readAll(b, 'events')).to.have.length(0);
      const [record] = await readAll(a, 'events');
      expect(record?.topic).to.equal('events');
      expect(record?.value.toString()).to.equal('from a');
      // Underneath, the physical names carry the prefix.
      expect((await log.read('a.events', 0, 0, 10)).map((r) => r.value.toString())).to.deep.equal(['from a']);
      await a.resetOffsets('g', 'events', { kind: 'latest' });
      expect((await a.lag('g', 'events'))[0]).to.include({ topic: 'events', committed: 1, end: 1 });
      expect((await b.lag('g', 'events'))[0]).to.include({ committed: 0, end: 0 });
    } finally {
      await log.close();
    }
  });
});
