import { expect } from 'chai';
import type { AvroCodec } from '@memory/contracts';
import type { EventLog, JobRecord, JobStore, OutgoingRecord } from '@memory/ports';
import { createLogger, errorCode, MemoryServiceError, withRequestId } from '@memory/platform';
import { acceptJob, JOB_RECORD_WAIT_MS, type AcceptJobDeps } from './accept-job.js';

/** acceptJob's order and deadlines, with a log that records appends and stores that answer when told to. */
describe('acceptJob', () => {
  const appended: string[] = [];
  const log = { append: async (topic: string, records: OutgoingRecord[]) => (appended.push(...records.map(() => topic)), []) } as unknown as EventLog;
  const slowCodec = (ms: number) => ({ encode: () => new Promise((resolve) => setTimeout(() => resolve(Buffer.from('event')), ms)) }) as unknown as AvroCodec;
  const jobs = (update: JobStore['update']) => ({ update }) as unknown as JobStore;
  const quietJobs = jobs(async (_tenant, _job, change) => change(null));
  const nothingErased = { isErased: async () => false, forgotten: async () => new Set<string>() };
  /** A key store where the job is forgotten: erased with its end user, or deleted by its id. */
  const erased = { isErased: async () => true, forgotten: async (_scope: unknown, keyIds: string[]) => new Set(keyIds) };
  const deps = (overrides: Partial<AcceptJobDeps>): AcceptJobDeps => ({ log, codec: slowCodec(0), jobs: quietJobs, keys: nothingErased, logger: createLogger({}, 'silent'), ...overrides });
  const ingest = { jobId: 'job_1700000000000_ada', tenantId: 'acme', endUserId: 'ada', kind: 'text', acceptedAt: 1_700_000_000_000 } as never;
  const forget = { jobId: 'del_job_1700000000000_ada', tenantId: 'acme', endUserId: 'ada', acceptedAt: 1_700_000_000_000 } as never;

  beforeEach(() => (appended.length = 0));

  it('refuses an ingest whose client left before its append, and appends nothing', async () => {
    let gone = false;
    const accepting = withRequestId('req-1', () => acceptJob(deps({ codec: slowCodec(50) }), 'ingestRequested', ingest), () => gone).catch((error: unknown) => error);
    gone = true; // the client closes its connection while the event is being prepared
    expect(errorCode(await accepting)).to.equal('REQUEST.ABORTED');
    expect(appended).to.deep.equal([]);
  });

  it('appends an ingest whose client waits, and a forget whose client left (a late erasure is still wanted)', async () => {
    await withRequestId('req-2', () => acceptJob(deps({ codec: slowCodec(5) }), 'ingestRequested', ingest), () => false);
    await withRequestId('req-3', () => acceptJob(deps({}), 'forgetRequested', forget), () => true);
    expect(appended).to.have.length(2);
  });

  it('answers Accepted once the event is appended, without waiting more than a moment for a job store that hangs', async () => {
    const hanging = jobs(() => new Promise<JobRecord>(() => undefined));
    const started = performance.now();
    const answer = await withRequestId('req-4', () => acceptJob(deps({ jobs: hanging }), 'ingestRequested', ingest));
    expect(answer).to.deep.equal({ status: 'Accepted', jobId: 'job_1700000000000_ada' });
    expect(appended).to.have.length(1);
    expect(performance.now() - started).to.be.within(JOB_RECORD_WAIT_MS - 50, JOB_RECORD_WAIT_MS + 1_000);
  });

  it('refuses an ingest that an erasure overtook once it is recorded, removing its record, but keeps a forget job', async () => {
    const records = new Map<string, JobRecord>();
    const recordingJobs = {
      update: async (_tenant: string, jobId: string, change: (current: JobRecord | null) => JobRecord) => (records.set(jobId, change(null)), records.get(jobId)!),
      forget: async (_tenant: string, jobIds: string[]) => jobIds.filter((jobId) => records.delete(jobId)).length,
    } as unknown as JobStore;
    const everythingErased = erased;
    const refused = await withRequestId('req-5', () => acceptJob(deps({ jobs: recordingJobs, keys: everythingErased }), 'ingestRequested', ingest)).catch((error: unknown) => error);
    expect(refused).to.include({ status: 409, code: 'REQUEST.END_USER_ERASED' });
    expect(await withRequestId('req-6', () => acceptJob(deps({ jobs: recordingJobs, keys: everythingErased }), 'forgetRequested', forget))).to.include({ status: 'Accepted' });
    expect([...records.keys()]).to.deep.equal(['del_job_1700000000000_ada']);
  });

  describe('an ingest answered before its erasure check could be made', () => {
    const records = new Map<string, JobRecord>();
    const written = new Set<string>();
    /** A job store whose writes land `delayMs` late, as an overloaded engine's do. */
    const slowJobs = (delayMs: number) => ({
      update: (_tenant: string, jobId: string, change: (current: JobRecord | null) => JobRecord) =>
        new Promise((resolve) => setTimeout(() => (written.add(jobId), resolve(records.set(jobId, change(null)).get(jobId))), delayMs)),
      forget: async (_tenant: string, jobIds: string[]) => jobIds.filter((jobId) => records.delete(jobId)).length,
    }) as unknown as JobStore;
    /** Whether the job's record, once written, is gone within `withinMs`. */
    const untilGone = async (jobId: string, withinMs: number) => {
      const deadline = performance.now() + withinMs;
      while ((!written.has(jobId) || records.has(jobId)) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      return written.has(jobId) && !records.has(jobId);
    };
    beforeEach(() => (records.clear(), written.clear()));

    it('removes its record once it lands, when the record outlasted the answer\'s wait and an erasure had overtaken it', async () => {
      const answer = await withRequestId('req-7', () => acceptJob(deps({ jobs: slowJobs(JOB_RECORD_WAIT_MS + 200), keys: erased }), 'ingestRequested', ingest));
      expect(answer).to.include({ status: 'Accepted' });
      expect(await untilGone('job_1700000000000_ada', 2_000), 'the Accepted record removed after it landed').to.equal(true);
    });

    it('removes its record when the key store could not answer at first and then says it was erased', async () => {
      let reads = 0;
      const unreachableOnce = () => {
        if (reads++ < 2) throw new MemoryServiceError('KEYS.UNAVAILABLE', 'the key store is briefly unreachable', { retriable: true });
      };
      // The accept's own check fails, and so does the later check's first read.
      const flaky = { isErased: async () => (unreachableOnce(), true), forgotten: async (_scope: unknown, keyIds: string[]) => (unreachableOnce(), new Set(keyIds)) };
      const answer = await withRequestId('req-8', () => acceptJob(deps({ jobs: slowJobs(0), keys: flaky }), 'ingestRequested', ingest));
      expect(answer).to.include({ status: 'Accepted' });
      expect(await untilGone('job_1700000000000_ada', 3_000), 'the record removed by the later check').to.equal(true);
    });

    it('removes its record when the write was answered with an error after landing (a lost answer)', async () => {
      const lostAnswer = {
        update: (_tenant: string, jobId: string, change: (current: JobRecord | null) => JobRecord) =>
          new Promise((_resolve, reject) => setTimeout(() => (written.add(jobId), records.set(jobId, change(null)), reject(new Error('socket hang up'))), JOB_RECORD_WAIT_MS + 100)),
        forget: async (_tenant: string, jobIds: string[]) => jobIds.filter((jobId) => records.delete(jobId)).length,
      } as unknown as JobStore;
      const answer = await withRequestId('req-10', () => acceptJob(deps({ jobs: lostAnswer, keys: erased }), 'ingestRequested', ingest));
      expect(answer).to.include({ status: 'Accepted' });
      expect(await untilGone('job_1700000000000_ada', 2_000), 'the record removed although its write reported a failure').to.equal(true);
    });

    it('removes its record when the client deleted the job the 202 named before the record landed', async () => {
      const deletedByItsId = { isErased: async () => false, forgotten: async (_scope: unknown, keyIds: string[]) => new Set(keyIds) };
      const answer = await withRequestId('req-11', () => acceptJob(deps({ jobs: slowJobs(JOB_RECORD_WAIT_MS + 200), keys: deletedByItsId }), 'ingestRequested', ingest));
      expect(answer).to.include({ status: 'Accepted' });
      expect(await untilGone('job_1700000000000_ada', 2_000)).to.equal(true);
    });

    it('keeps the record of a job no erasure overtook', async () => {
      await withRequestId('req-9', () => acceptJob(deps({ jobs: slowJobs(JOB_RECORD_WAIT_MS + 100), keys: nothingErased }), 'ingestRequested', ingest));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect([...records.keys()]).to.deep.equal(['job_1700000000000_ada']);
    });
  });
});
