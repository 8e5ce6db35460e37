import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AvroCodec, EVENTS, jobHeaders, keyForgotten, newDataKey, REQUEST_ID_RECORD_HEADER, schemaVersions, userKey, type ContentKeys, type IngestRequested, type MemoryEnriched } from '@memory/contracts';
import { deadLetters, stageRecords } from '@memory/metrics';
import { createLogger, MemoryServiceError } from '@memory/platform';
import type { EventLog, SchemaRegistry } from '@memory/ports';
import { FailedAfter, runStage, progress, type StageSpec } from '@memory/pipeline-runtime';
import { createEmbeddedEventLog } from '@memory/eventlog-embedded';
import { createEmbeddedSchemaRegistry } from '@memory/schema-registry-embedded';
import { samePartitionUser } from '@memory/testing';

/** The stage runner on the real embedded log: retries, poison isolation, dead letters and job failure. */
describe('stage runner on the embedded log', function () {
  this.timeout(30_000);
  let dir: string;
  let log: EventLog;
  let registry: SchemaRegistry;
  let codec: AvroCodec;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'runner-'));
    registry = await createEmbeddedSchemaRegistry({ dir: join(dir, 'registry') });
    log = await createEmbeddedEventLog({ dir: join(dir, 'log') });
    codec = new AvroCodec(registry);
    await log.ensureTopics(Object.values(EVENTS).map((e) => ({ name: e.topic, partitions: 2 })));
  });
  afterEach(async () => {
    await log.close();
    await registry.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const request = (n: number, content: string): IngestRequested => ({
    jobId: `job_${1000 + n}_u${n % 2}`, tenantId: 't', endUserId: `u${n % 2}`, kind: 'text', acceptedAt: 1000 + n,
    content, sourceTimestamp: null, timeZone: null, userContext: null, blob: null, metadata: null, memoryId: null, cause: null,
  });

  async function publish(requests: IngestRequested[], requestIdOf?: (r: IngestRequested) => string) {
    for (const r of requests) {
      await log.append(EVENTS.ingestRequested.topic, [{ key: userKey(r.tenantId, r.endUserId), value: await codec.encode('ingestRequested', r), headers: jobHeaders(r, requestIdOf?.(r)) }]);
    }
  }

  async function readAll<N extends 'jobStatus' | 'deadLetter'>(event: N) {
    const out = [];
    for (let p = 0; p < (await log.partitionsOf(EVENTS[event].topic)); p++) {
      for (const record of await log.read(EVENTS[event].topic, p, 0, 1000)) out.push(await codec.decode(event, record.value));
    }
    return out;
  }

  /** Content keys in a map, and how to forget one (its key destroyed, never created again), as the key store does. */
  function forgettableKeys() {
    const keys = new Map<string, Buffer>();
    const destroyed = new Set<string>();
    const contentKeys: ContentKeys = {
      async keyFor(t, u, k) {
        const id = `${t}/${u}/${k}`;
        if (destroyed.has(id)) throw keyForgotten(t, u, k);
        if (!keys.has(id)) keys.set(id, newDataKey());
        return keys.get(id)!;
      },
      async existingKey(t, u, k) {
        return keys.get(`${t}/${u}/${k}`) ?? null;
      },
    };
    const forget = (id: string) => (keys.delete(id), destroyed.add(id));
    return { sealed: new AvroCodec(registry, contentKeys), forget };
  }

  /** Every job status in the log, opened with `sealed`. */
  async function statusesOf(sealed: AvroCodec) {
    const out = [];
    for (let p = 0; p < (await log.partitionsOf(EVENTS.jobStatus.topic)); p++) {
      for (const record of await log.read(EVENTS.jobStatus.topic, p, 0, 1000)) out.push(await sealed.decode('jobStatus', record.value));
    }
    return out;
  }

  async function until(check: () => Promise<boolean>) {
    const deadline = Date.now() + 10_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error('condition not reached in 10 s');
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('dead-letters the one record that keeps failing, fails its job, and processes the rest', async () => {
    const seen: string[] = [];
    const stage: StageSpec<'ingestRequested', Record<string, never>> = {
      name: 'test-stage', group: 'test-stage', inputs: ['ingestRequested'], outputs: ['jobStatus'],
      async process(batch) {
        for (const item of batch) {
          if (item.value.content === 'poison') throw new MemoryServiceError('TEST.POISON', 'this record can never be processed');
        }
        return batch.map((item) => { seen.push(item.value.jobId); return [progress('test-stage', item.value)]; });
      },
    };
    const requests = [request(1, 'fine'), request(3, 'poison'), request(5, 'fine too'), request(2, 'other user')];
    await publish(requests);
    const consumer = await runStage(stage, {}, { log, codec, logger: createLogger({}, 'silent'), retry: { initialDelayMs: 1, retries: 2 } });
    await until(async () => (await readAll('deadLetter')).length === 1 && seen.length === 3);
    await consumer.stop();

    const [dead] = await readAll('deadLetter');
    expect(dead!.stage).to.equal('test-stage');
    expect(dead!.jobId).to.equal('job_1003_u1');
    expect(dead!.errorCode).to.equal('TEST.POISON');
    expect(dead!.attempts).to.equal(1); // not retriable: no retries
    expect((await codec.decode('ingestRequested', dead!.value as Buffer)).content).to.equal('poison');
    const failed = (await readAll('jobStatus')).filter((s) => s.state === 'Failed');
    expect(failed.map((s) => s.jobId)).to.deep.equal(['job_1003_u1']);
    expect(failed[0]!.reason).to.include('never be processed');
    expect(seen.sort()).to.deep.equal(['job_1001_u1', 'job_1002_u0', 'job_1005_u1']);
  });

  it('counts processed and failed records and dead letters in the metrics, and copies each input\'s request id onto its outputs', async () => {
    const counted = async (metric: typeof stageRecords | typeof deadLetters, labels: Record<string, string>) =>
      (await metric.get()).values.find((v) => Object.entries(labels).every(([name, value]) => (v.labels as Record<string, unknown>)[name] === value))?.value ?? 0;
    const stage: StageSpec<'ingestRequested', Record<string, never>> = {
      name: 'metered-stage', group: 'metered-stage', inputs: ['ingestRequested'], outputs: ['jobStatus'],
      async process(batch) {
        if (batch.some((item) => item.value.content === 'poison')) throw new MemoryServiceError('TEST.POISON', 'this record can never be processed');
        return batch.map((item) => [progress('metered-stage', item.value)]);
      },
    };
    const before = {
      processed: await counted(stageRecords, { stage: 'metered-stage', outcome: 'processed' }),
      failed: await counted(stageRecords, { stage: 'metered-stage', outcome: 'failed' }),
      dead: await counted(deadLetters, { stage: 'metered-stage' }),
    };
    await publish([request(1, 'fine'), request(3, 'poison'), request(5, 'fine too'), request(2, 'other user')], (r) => `req-${r.jobId}`);
    const consumer = await runStage(stage, {}, { log, codec, logger: createLogger({}, 'silent'), retry: { initialDelayMs: 1, retries: 2 } });
    await until(async () => (await readAll('deadLetter')).length === 1 && (await readAll('jobStatus')).length === 4);
    await consumer.stop();

    expect(await counted(stageRecords, { stage: 'metered-stage', outcome: 'processed' })).to.equal(before.processed + 3);
    expect(await counted(stageRecords, { stage: 'metered-stage', outcome: 'failed' })).to.equal(before.failed + 1);
    expect(await counted(deadLetters, { stage: 'metered-stage' })).to.equal(before.dead + 1);
    // Every output (the three progress reports, the failed job's status, the dead letter) names its input's request.
    for (const event of ['jobStatus', 'deadLetter'] as const) {
      for (let p = 0; p < (await log.partitionsOf(EVENTS[event].topic)); p++) {
        for (const record of await log.read(EVENTS[event].topic, p, 0, 1000)) {
          const { jobId } = await codec.decode(event, record.value);
          expect(record.headers[REQUEST_ID_RECORD_HEADER], `${event} of ${jobId}`).to.equal(`req-${jobId}`);
        }
      }
    }
  });

  it('fails an update whose memory was forgotten in the pipeline (MEMORY.FORGOTTEN), named by its job-id header', async () => {
    const { sealed, forget } = forgettableKeys();
    const update: IngestRequested = { ...request(9, 'corrected text'), jobId: 'upd_job_1009_u1', memoryId: 'mem_job_1001_u1_0', cause: 'update' };
    for (const r of [update, request(11, 'unrelated')]) {
      await log.append(EVENTS.ingestRequested.topic, [{ key: userKey(r.tenantId, r.endUserId), value: await sealed.encode('ingestRequested', r), headers: jobHeaders(r) }]);
    }
    // The delete destroys the key of the memory's job, which seals every version of it.
    forget('t/u1/job_1001_u1');
    const seen: string[] = [];
    const stage: StageSpec<'ingestRequested', Record<string, never>> = {
      name: 'test-stage', group: 'test-stage', inputs: ['ingestRequested'], outputs: ['jobStatus'],
      async process(batch) {
        return batch.map((item) => { seen.push(item.value.jobId); return [progress('test-stage', item.value)]; });
      },
    };
    const consumer = await runStage(stage, {}, { log, codec: sealed, logger: createLogger({}, 'silent') });
    const statuses = () => statusesOf(sealed);
    await until(async () => (await statuses()).length === 2);
    await consumer.stop();
    expect(seen).to.deep.equal(['job_1011_u1']);
    const failed = (await statuses()).find((s) => s.jobId === 'upd_job_1009_u1')!;
    expect([failed.state, failed.errorCode, failed.stage]).to.deep.equal(['Failed', 'MEMORY.FORGOTTEN', 'test-stage']);
    expect(failed.reason).to.include('deleted');
    expect(await readAll('deadLetter')).to.have.length(0);
  });

  it('counts a PDF page forgotten in the pipeline done, whether the stage reads it or would write it, so its job can complete', async () => {
    const { sealed, forget } = forgettableKeys();
    const page = (partIndex: number): MemoryEnriched => ({
      ...(schemaVersions('enriched').at(-1)!.fixture as MemoryEnriched),
      jobId: 'doc_job_1001_u1', tenantId: 't', endUserId: 'u1', memoryId: `mem_doc_job_1001_u1_${partIndex}`, partIndex,
    });
    // Page 0 is sealed, then forgotten before the stage reads it; page 1 is forgotten before the stage writes it.
    await log.append(EVENTS.enriched.topic, [{ key: 't/u1', value: await sealed.encode('enriched', page(0)), headers: jobHeaders(page(0)) }]);
    forget('t/u1/mem_doc_job_1001_u1_0');
    forget('t/u1/mem_doc_job_1001_u1_1');
    await publish([request(1, 'makes page 1')]);
    const stage: StageSpec<'ingestRequested' | 'enriched', Record<string, never>> = {
      name: 'dual-writer', group: 'test-pages', inputs: ['ingestRequested', 'enriched'], outputs: ['enriched', 'jobStatus'],
      async process(batch) {
        return batch.map(() => [{ event: 'enriched', value: page(1) }]);
      },
    };
    const consumer = await runStage(stage, {}, { log, codec: sealed, logger: createLogger({}, 'silent') });
    const statuses = () => statusesOf(sealed);
    await until(async () => (await statuses()).length === 2);
    await consumer.stop();
    const done = (await statuses()).map((s) => [s.jobId, s.state, s.partIndex, s.memoryId]).sort((a, b) => Number(a[2]) - Number(b[2]));
    expect(done).to.deep.equal([['doc_job_1001_u1', 'Completed', 0, 'mem_doc_job_1001_u1_0'], ['doc_job_1001_u1', 'Completed', 1, 'mem_doc_job_1001_u1_1']]);
    expect(await readAll('deadLetter')).to.have.length(0);
  });

  it('seals a dead letter with its job\'s key, and writes none for a job forgotten while its record was failing', async () => {
    const { sealed, forget } = forgettableKeys();
    const [kept, gone] = [request(1, 'a poison pill'), request(3, 'a poison pill, deleted meanwhile')];
    for (const r of [kept, gone]) await log.append(EVENTS.ingestRequested.topic, [{ key: userKey(r.tenantId, r.endUserId), value: await sealed.encode('ingestRequested', r), headers: jobHeaders(r) }]);
    const stage: StageSpec<'ingestRequested', Record<string, never>> = {
      name: 'test-stage', group: 'test-sealed-dead-letters', inputs: ['ingestRequested'], outputs: ['jobStatus'],
      async process(batch) {
        // The second job is forgotten (its key destroyed) while the stage holds it, and both fail.
        forget('t/u1/job_1003_u1');
        throw new MemoryServiceError('TEST.POISON', `cannot process ${batch.map((item) => item.value.content).join(', ')}`);
      },
    };
    const consumer = await runStage(stage, {}, { log, codec: sealed, logger: createLogger({}, 'silent'), retry: { initialDelayMs: 1, retries: 0 } });
    const records = async (topic: string) => {
      const out = [];
      for (let p = 0; p < (await log.partitionsOf(topic)); p++) out.push(...(await log.read(topic, p, 0, 1000)));
      return out;
    };
    await until(async () => (await records(EVENTS.deadLetter.topic)).length === 1 && (await records(EVENTS.jobStatus.topic)).length === 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await consumer.stop();
    const [letter] = await records(EVENTS.deadLetter.topic);
    expect(letter!.value.includes(Buffer.from('poison')), 'no content in clear').to.equal(false);
    const opened = await sealed.decode('deadLetter', letter!.value);
    expect([opened.jobId, opened.errorMessage]).to.deep.equal(['job_1001_u1', 'cannot process a poison pill']);
    const [failed] = await Promise.all((await records(EVENTS.jobStatus.topic)).map((record) => sealed.decode('jobStatus', record.value)));
    expect([failed!.jobId, failed!.state]).to.deep.equal(['job_1001_u1', 'Failed']);
  });

  it('publishes what a stage carried out before a record failed (FailedAfter), and retries from that record only', async () => {
    const carriedOut: string[] = [];
    let failures = 0;
    const stage: StageSpec<'ingestRequested', Record<string, never>> = {
      name: 'test-stage', group: 'test-failed-after', inputs: ['ingestRequested'], outputs: ['jobStatus'],
      async process(batch) {
        const outputs = [];
        for (const item of batch) {
          if (item.value.content === 'fails once' && failures++ === 0) {
            throw new FailedAfter(outputs, new MemoryServiceError('TEST.PASSING', 'a passing failure', { retriable: true }));
          }
          carriedOut.push(item.value.jobId);
          outputs.push([progress('test-stage', item.value, { state: 'Completed', memoryId: `mem_${item.value.jobId}_0`, partIndex: 0, partCount: 1 })]);
        }
        return outputs;
      },
    };
    // One end user's three records, appended together so they come as one batch.
    const [first, second, third] = [request(1, 'done first'), request(3, 'fails once'), request(5, 'done last')];
    await log.append(EVENTS.ingestRequested.topic, await Promise.all([first, second, third].map(async (r) => ({ key: userKey(r.tenantId, r.endUserId), value: await codec.encode('ingestRequested', r), headers: jobHeaders(r) }))));
    const consumer = await runStage(stage, {}, { log, codec, logger: createLogger({}, 'silent'), retry: { initialDelayMs: 1, retries: 2 } });
    await until(async () => (await readAll('jobStatus')).length === 3);
    await consumer.stop();
    expect(carriedOut, 'the first record is not carried out again').to.deep.equal(['job_1001_u1', 'job_1003_u1', 'job_1005_u1']);
    expect((await readAll('jobStatus')).map((s) => s.jobId)).to.deep.equal(['job_1001_u1', 'job_1003_u1', 'job_1005_u1']);
    expect(await readAll('deadLetter')).to.have.length(0);
  });

  it('retries a retriable failure with backoff and then succeeds without dead-lettering', async () => {
    let failures = 0;
    const stage: StageSpec<'ingestRequested', Record<string, never>> = {
      name: 'flaky', group: 'flaky', inputs: ['ingestRequested'], outputs: ['jobStatus'],
      async process(batch) {
        if (failures < 2) { failures++; throw new MemoryServiceError('TEST.BUSY', 'store busy', { retriable: true }); }
        return batch.map((item) => [progress('flaky', item.value)]);
      },
    };
    await publish([request(7, 'hello')]);
    const consumer = await runStage(stage, {}, { log, codec, logger: createLogger({}, 'silent'), retry: { initialDelayMs: 1, retries: 4 } });
    await until(async () => (await readAll('jobStatus')).length === 1);
    await consumer.stop();
    expect(failures).to.equal(2);
    expect(await readAll('deadLetter')).to.have.length(0);
    const lag = await log.lag('flaky', EVENTS.ingestRequested.topic);
    expect(lag.every((p) => p.committed === p.end)).to.equal(true);
  });

  describe('a compute-only stage', () => {
    const oneUser = [1, 3, 5, 7, 9, 11, 13].map((n) => request(n, `text ${n}`));
    const publishedJobs = async () => (await readAll('jobStatus')).map((s) => s.jobId);

    it('processes the slices of a batch at the same time and publishes them in input order', async () => {
      let active = 0;
      let mostActive = 0;
      const sliceSizes: number[] = [];
      const stage: StageSpec<'ingestRequested', Record<string, never>> = {
        name: 'compute', group: 'compute', inputs: ['ingestRequested'], outputs: ['jobStatus'], computesOnly: true,
        async process(batch) {
          sliceSizes.push(batch.length);
          mostActive = Math.max(mostActive, ++active);
          // Later slices finish first: the order of publishing must not follow the order of finishing.
          await new Promise((r) => setTimeout(r, 40 - 10 * sliceSizes.length));
          active--;
          return batch.map((item) => [progress('compute', item.value)]);
        },
      };
      await publish(oneUser);
      const consumer = await runStage(stage, {}, { log, codec, logger: createLogger({}, 'silent'), maxBatchSize: 2 });
      await until(async () => (await publishedJobs()).length === oneUser.length);
      await consumer.stop();
      expect(sliceSizes).to.deep.equal([2, 2, 2, 1]);
      expect(mostActive).to.equal(4);
      expect(await publishedJobs()).to.deep.equal(oneUser.map((r) => r.jobId));
    });

    it('after a failed slice, retries from that slice without publishing the ones before it again', async () => {
      let failedOnce = false;
      const stage: StageSpec<'ingestRequested', Record<string, never>> = {
        name: 'compute-flaky', group: 'compute-flaky', inputs: ['ingestRequested'], outputs: ['jobStatus'], computesOnly: true,
        async process(batch) {
          if (batch[0]!.value.content === 'text 5' && !failedOnce) {
            failedOnce = true;
            throw new MemoryServiceError('TEST.BUSY', 'store busy', { retriable: true });
          }
          return batch.map((item) => [progress('compute-flaky', item.value)]);
        },
      };
      await publish(oneUser);
      const consumer = await runStage(stage, {}, { log, codec, logger: createLogger({}, 'silent'), maxBatchSize: 2, retry: { initialDelayMs: 1, retries: 3 } });
      await until(async () => (await publishedJobs()).length >= oneUser.length);
      await consumer.stop();
      expect(failedOnce).to.equal(true);
      expect(await publishedJobs()).to.deep.equal(oneUser.map((r) => r.jobId));
      expect(await readAll('deadLetter')).to.have.length(0);
    });
  });

  it('fails the job an undecodable record names in clear, and dead-letters a body the Avro decoder cannot read rather than retrying it forever', async () => {
    // A frame of the wire format around a truncated body: the decoder throws a plain Error, with no code.
    const whole = await codec.encode('ingestRequested', request(1, 'fine'));
    await log.append(EVENTS.ingestRequested.topic, [{ key: 't/u1', value: whole.subarray(0, whole.length - 4), headers: { 'job-id': 'job_1001_u1' } }]);
    const stage: StageSpec<'ingestRequested', Record<string, never>> = {
      name: 'reporting', group: 'reporting', inputs: ['ingestRequested'], outputs: ['jobStatus'],
      async process(batch) { return batch.map(() => []); },
    };
    const consumer = await runStage(stage, {}, { log, codec, logger: createLogger({}, 'silent'), retry: { initialDelayMs: 1 } });
    await until(async () => (await readAll('deadLetter')).length === 1);
    await consumer.stop();
    expect((await readAll('deadLetter'))[0]!.jobId).to.equal('job_1001_u1');
    const failed = (await readAll('jobStatus')).filter((status) => status.state === 'Failed');
    expect(failed.map((status) => [status.jobId, status.tenantId, status.endUserId, status.stage])).to.deep.equal([['job_1001_u1', 't', 'u1', 'reporting']]);
  });

  it('does not fail a job when a projection of the job reports (outputs no jobStatus) dead-letters one: the tracker would read its own Failed report', async () => {
    await publish([request(1, 'poison')]);
    const projection: StageSpec<'ingestRequested', Record<string, never>> = {
      name: 'projection', group: 'projection', inputs: ['ingestRequested'], outputs: [],
      async process() { throw new MemoryServiceError('TEST.POISON', 'this record can never be projected'); },
    };
    const consumer = await runStage(projection, {}, { log, codec, logger: createLogger({}, 'silent'), retry: { initialDelayMs: 1, retries: 1 } });
    await until(async () => (await readAll('deadLetter')).length === 1);
    await consumer.stop();
    expect((await readAll('deadLetter'))[0]!.jobId).to.equal('job_1001_u1');
    expect(await readAll('jobStatus')).to.deep.equal([]);
  });

  it('sends a projection\'s batch back while its store keeps failing retriably, and projects it once the store recovers: a dead-lettered report would lose its job\'s end', async () => {
    await publish([request(1, 'a report')]);
    let failing = true;
    const projected: string[] = [];
    const projection: StageSpec<'ingestRequested', Record<string, never>> = {
      name: 'projection', group: 'projection', inputs: ['ingestRequested'], outputs: [],
      async process(batch) {
        // What a job store answers that cannot take writes for a while (an LMDB write failing, conflicts that kept winning).
        if (failing) throw new MemoryServiceError('JOBS.STORAGE', 'the job store write failed', { retriable: true });
        projected.push(...batch.map((item) => item.value.jobId));
        return batch.map(() => []);
      },
    };
    const consumer = await runStage(projection, {}, { log, codec, logger: createLogger({}, 'silent'), retry: { initialDelayMs: 1, retries: 1 } });
    try {
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await readAll('deadLetter'), 'nothing dead-lettered while the store fails').to.deep.equal([]);
      failing = false;
      await until(async () => projected.length > 0);
    } finally {
      await consumer.stop();
    }
    expect(projected).to.deep.equal(['job_1001_u1']);
    expect(await readAll('deadLetter')).to.deep.equal([]);
  });

  it('gives up sending a projection\'s batch back once its store has failed for longer than the hold, and dead-letters the record', async () => {
    await publish([request(1, 'a report')]);
    const projection: StageSpec<'ingestRequested', Record<string, never>> = {
      name: 'projection', group: 'projection', inputs: ['ingestRequested'], outputs: [],
      async process() { throw new MemoryServiceError('JOBS.STORAGE', 'this record\'s write fails every time', { retriable: true }); },
    };
    const consumer = await runStage(projection, {}, { log, codec, logger: createLogger({}, 'silent'), retry: { initialDelayMs: 1, retries: 1 }, projectionHoldMs: 300 });
    try {
      await until(async () => (await readAll('deadLetter')).length === 1);
    } finally {
      await consumer.stop();
    }
    expect((await readAll('deadLetter'))[0]).to.include({ jobId: 'job_1001_u1', errorCode: 'JOBS.STORAGE' });
  });

  it('dead-letters a record that is not in the wire format', async () => {
    await log.append(EVENTS.ingestRequested.topic, [{ key: 't/u0', value: Buffer.from('not avro') }]);
    const stage: StageSpec<'ingestRequested', Record<string, never>> = {
      name: 'strict', group: 'strict', inputs: ['ingestRequested'], outputs: [],
      async process(batch) { return batch.map(() => []); },
    };
    const consumer = await runStage(stage, {}, { log, codec, logger: createLogger({}, 'silent'), retry: { initialDelayMs: 1 } });
    await until(async () => (await readAll('deadLetter')).length === 1);
    await consumer.stop();
    expect((await readAll('deadLetter'))[0]!.errorCode).to.equal('CONTRACT.BAD_FRAME');
  });
  /** Appends one ingest request per call, so each may be read as a batch of its own. */
  const appendEach = async (requests: IngestRequested[]) => {
    for (const r of requests) await log.append(EVENTS.ingestRequested.topic, [{ key: userKey(r.tenantId, r.endUserId), value: await codec.encode('ingestRequested', r), headers: jobHeaders(r) }]);
  };
  const loudUser = { tenantId: 't', endUserId: 'loud' };
  const loudRequest = (n: number): IngestRequested => ({ ...request(n, `loud ${n}`), ...loudUser, jobId: `job_${1000 + n}_loud` });

  it('hands a busy key\'s records that arrived in several batches to a compute-only stage in one call once its earlier batch ends', async () => {
    let openSlow!: () => void;
    const slow = new Promise<void>((resolve) => (openSlow = resolve));
    const calls: Array<Array<string | null>> = [];
    const stage: StageSpec<'ingestRequested', Record<string, never>> = {
      name: 'merge-stage', group: 'merge-stage', inputs: ['ingestRequested'], outputs: ['jobStatus'], computesOnly: true,
      async process(batch) {
        calls.push(batch.map((item) => item.value.content));
        if (batch.some((item) => item.value.content === 'loud 1')) await slow;
        return batch.map((item) => [progress('merge-stage', item.value)]);
      },
    };
    await appendEach([loudRequest(1)]);
    const consumer = await runStage(stage, {}, { log, codec, logger: createLogger({}, 'silent') });
    try {
      await until(async () => calls.length === 1);
      await appendEach([loudRequest(2), loudRequest(3), loudRequest(4)]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      openSlow();
      await until(async () => calls.flat().includes('loud 4'));
    } finally {
      openSlow();
      await consumer.stop();
    }
    expect(calls).to.deep.equal([['loud 1'], ['loud 2', 'loud 3', 'loud 4']]);
  });

  it('after an engine outage outlasting the retries, a busy key\'s later record waits: redelivered, the two keep their order', async () => {
    let outage = true;
    const order: Array<string | null> = [];
    const stage: StageSpec<'ingestRequested', Record<string, never>> = {
      name: 'outage-order-stage', group: 'outage-order-stage', inputs: ['ingestRequested'], outputs: ['jobStatus'], computesOnly: true,
      async process(batch) {
        if (batch.some((item) => item.value.content === 'loud 1')) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          if (outage) throw new MemoryServiceError('JOBS.UNAVAILABLE', 'no shard available', { retriable: true });
        }
        order.push(...batch.map((item) => item.value.content));
        return batch.map((item) => [progress('outage-order-stage', item.value)]);
      },
    };
    await appendEach([loudRequest(1)]);
    const consumer = await runStage(stage, {}, { log, codec, logger: createLogger({}, 'silent'), retry: { initialDelayMs: 1, retries: 1 } });
    try {
      await appendEach([loudRequest(2)]);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(order, 'the later record does not overtake the one that keeps failing').to.deep.equal([]);
      outage = false;
      await until(async () => order.includes('loud 2'));
    } finally {
      await consumer.stop();
    }
    expect(order.indexOf('loud 1')).to.be.at.least(0).and.below(order.indexOf('loud 2'));
  });

  for (const [kind, mark] of [['a compute-only stage', { computesOnly: true }], ['a stage whose end users are apart (a store-writing one)', { endUsersApart: true }]] as const) it(`hands ${kind} a quiet key's records while a loud key's batch is in flight, keeping each key in order`, async () => {
    const loud = { tenantId: 't', endUserId: 'loud' };
    const quiet = { tenantId: 't', endUserId: samePartitionUser('t', 'quiet', loud, 2) };
    const as = (user: typeof loud, n: number, content: string): IngestRequested => ({ ...request(n, content), ...user, jobId: `job_${1000 + n}_${user.endUserId}` });
    let openSlow!: () => void;
    const slow = new Promise<void>((resolve) => (openSlow = resolve));
    const events: string[] = [];
    const stage: StageSpec<'ingestRequested', Record<string, never>> = {
      name: 'lanes-stage', group: `lanes-stage-${Object.keys(mark)[0]}`, inputs: ['ingestRequested'], outputs: ['jobStatus'], ...mark,
      async process(batch) {
        for (const item of batch) events.push(`start ${item.value.content}`);
        if (batch.some((item) => item.value.content === 'loud 1')) await slow;
        for (const item of batch) events.push(`end ${item.value.content}`);
        return batch.map((item) => [progress('lanes-stage', item.value)]);
      },
    };
    await publish([as(loud, 1, 'loud 1')]);
    const consumer = await runStage(stage, {}, { log, codec, logger: createLogger({}, 'silent') });
    try {
      await until(async () => events.includes('start loud 1'));
      // One append: the loud key's next record and the quiet key's come in one batch, behind the slow one.
      const next = [as(loud, 3, 'loud 2'), as(quiet, 5, 'quiet 1')];
      await log.append(EVENTS.ingestRequested.topic, await Promise.all(next.map(async (r) => ({ key: userKey(r.tenantId, r.endUserId), value: await codec.encode('ingestRequested', r), headers: jobHeaders(r) }))));
      await until(async () => events.includes('end quiet 1'));
      expect(events, 'the loud key\'s second record waits for its first').to.not.include('start loud 2');
      expect(events).to.not.include('end loud 1');
      openSlow();
      await until(async () => events.includes('end loud 2'));
    } finally {
      openSlow();
      await consumer.stop();
    }
    expect(events.indexOf('end loud 1')).to.be.below(events.indexOf('start loud 2'));
    expect((await readAll('jobStatus')).map((s) => s.jobId).sort()).to.deep.equal([`job_1001_loud`, `job_1003_loud`, `job_1005_${quiet.endUserId}`]);
  });
});
