import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AvroCodec, EVENTS, jobStatusOf, userKey } from '@memory/contracts';
import { createEmbeddedEventLog } from '@memory/eventlog-embedded';
import { runStage, type StageSpec } from '@memory/pipeline-runtime';
import { createEmbeddedSchemaRegistry } from '@memory/schema-registry-embedded';
import { createLogger, MemoryServiceError } from '@memory/platform';
import type { Consumer, EventLog } from '@memory/ports';
import { readAll, sleep, waitFor } from '@memory/testing';

const logger = createLogger({ component: 'stage-outage' }, 'error');
const job = { jobId: 'job_1700000000000_alice', tenantId: 'acme', endUserId: 'alice' };

/**
 * How the stage runner treats a failing store: an engine outage (a retriable `*.UNAVAILABLE`) that outlasts the
 * retries must not dead-letter the batch (an `npm run drill -- --engine elasticsearch` found jobs Failed with
 * JOBS.UNAVAILABLE, and one never finished, after a 40 s outage); any other failure still does, so a poison record
 * never stalls a partition.
 */
describe('stage runner under a store outage', () => {
  let dir: string;
  let log: EventLog;
  let consumer: Consumer | undefined;
  let codec: AvroCodec;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'stage-outage-'));
    log = await createEmbeddedEventLog({ dir: join(dir, 'log'), logger, retryInitialMs: 5, retryMaxMs: 20, pollIntervalMs: 20 });
    codec = new AvroCodec(await createEmbeddedSchemaRegistry({ dir: join(dir, 'registry') }));
    await log.ensureTopics([EVENTS.jobStatus.topic, EVENTS.deadLetter.topic].map((name) => ({ name, partitions: 1 })));
    const value = await codec.encode('jobStatus', jobStatusOf(job, 'Processing', { stage: 'enricher' }));
    await log.append(EVENTS.jobStatus.topic, [{ key: userKey(job.tenantId, job.endUserId), value }]);
  });

  afterEach(async () => {
    await consumer?.stop();
    await log.close();
    await rm(dir, { recursive: true, force: true });
  });

  /**
   * A stage writing each record's job id to a "store" that fails with `failure` while `state.failing` is true. It
   * reports jobs' progress, as the pipeline's stages do (a projection of the reports fails no job).
   */
  const storeWriter = (state: { failing: boolean; calls: number }, failure: () => Error, written: string[]): StageSpec<'jobStatus', object> => ({
    name: 'store-writer',
    group: 'store-writer',
    inputs: ['jobStatus'],
    outputs: ['jobStatus'],
    async process(batch) {
      state.calls += 1;
      if (state.failing) throw failure();
      written.push(...batch.map((item) => item.value.jobId));
      return batch.map(() => []);
    },
  });
  const retry = { retries: 1, initialDelayMs: 1, maxDelayMs: 2 };

  it('keeps a batch whose store is unavailable, past its retries, and processes it once the store answers', async () => {
    const state = { failing: true, calls: 0 };
    const written: string[] = [];
    const outage = () => new MemoryServiceError('JOBS.UNAVAILABLE', 'no shard available', { retriable: true });
    consumer = await runStage(storeWriter(state, outage, written), {}, { log, codec, logger, retry });
    await waitFor(() => state.calls > 6, 'the batch to be tried past its retries several times');
    expect(await readAll(log, EVENTS.deadLetter.topic)).to.have.length(0);
    state.failing = false;
    await waitFor(() => written.length > 0, 'the batch to be written once the store answers');
    expect(written).to.deep.equal([job.jobId]);
    await sleep(100);
    expect(await readAll(log, EVENTS.deadLetter.topic)).to.have.length(0);
  });

  it('still dead-letters a record that fails for any other reason, and fails its job', async () => {
    const state = { failing: true, calls: 0 };
    const broken = () => new MemoryServiceError('STORE.INVALID_DOCUMENT', 'mapping refused the document', { retriable: false });
    consumer = await runStage(storeWriter(state, broken, []), {}, { log, codec, logger, retry });
    await waitFor(async () => (await readAll(log, EVENTS.deadLetter.topic)).length > 0, 'the dead letter');
    const statuses = await readAll(log, EVENTS.jobStatus.topic);
    const last = await codec.decode('jobStatus', statuses.at(-1)!.value);
    expect(last).to.include({ jobId: job.jobId, state: 'Failed', errorCode: 'STORE.INVALID_DOCUMENT' });
  });
});
