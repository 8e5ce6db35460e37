import { expect } from 'chai';
import { createLogger, fullBucket } from '@memory/platform';
import type { JobStore } from '@memory/ports';
import { Admission, ADMISSION_RETRY_AFTER_S, AdmissionRefused, createsJob, decideAdmission, type AdmissionPolicy, type AdmissionSignals } from './admission.js';

describe('admission', () => {
  const policy: AdmissionPolicy = { ratePerS: 1, burst: 2, maxInFlight: 5, maxBacklogRecords: 100, minFreeDiskBytes: 1_000 };
  const calm: AdmissionSignals = { backlogRecords: 0, freeDiskBytes: 10_000 };
  const at = (now: number, inFlight = 0, signals = calm, bucket = fullBucket(policy, 0), activeTenants = 1) => decideAdmission({ bucket, inFlight, activeTenants, signals }, policy, now);

  it('admits a burst with RateLimit headers counting down, then refuses with RATE.LIMITED until a token is back', () => {
    const first = at(0);
    expect(first.refusal).to.equal(null);
    expect(first.headers).to.deep.equal({ 'ratelimit-limit': '2', 'ratelimit-remaining': '1', 'ratelimit-reset': '1' });
    const second = at(0, 0, calm, first.bucket);
    expect(second.headers['ratelimit-remaining']).to.equal('0');
    const third = at(0, 0, calm, second.bucket);
    expect(third.refusal).to.include({ status: 429, code: 'RATE.LIMITED', retryAfterSeconds: 1 });
    expect(third.headers).to.include({ 'ratelimit-remaining': '0', 'ratelimit-reset': '2' });
    expect(at(1_000, 0, calm, third.bucket).refusal).to.equal(null);
  });

  it('refuses in the order disk, backlog, in-flight, and spends no token on a refusal', () => {
    const full = { backlogRecords: 1_000, freeDiskBytes: 10 };
    expect(at(0, 9, full).refusal).to.include({ status: 507, code: 'STORAGE.FULL', retryAfterSeconds: ADMISSION_RETRY_AFTER_S.storageFull });
    expect(at(0, 100, { ...full, freeDiskBytes: 1_000 }).refusal).to.include({ status: 503, code: 'SERVICE.OVERLOADED', retryAfterSeconds: ADMISSION_RETRY_AFTER_S.overloaded });
    // The backlog is every tenant's: its size tells one tenant of the others' traffic.
    expect(at(0, 100, { ...full, freeDiskBytes: 1_000 }).refusal!.message).to.not.match(/\d/);
    const busy = at(0, 5);
    expect(busy.refusal).to.include({ status: 429, code: 'RATE.TOO_MANY_IN_FLIGHT', retryAfterSeconds: ADMISSION_RETRY_AFTER_S.inFlight });
    expect(busy.bucket.tokens).to.equal(2);
    expect(busy.headers['ratelimit-remaining']).to.equal('2');
    expect(at(0, 4).refusal).to.equal(null);
  });

  it('behind its backlog bound, refuses the tenants holding their share of it and admits those under it', () => {
    const behind = { backlogRecords: 101, freeDiskBytes: 10_000 };
    const roomy = { ...policy, maxInFlight: 1_000 };
    const decide = (inFlight: number, activeTenants: number) => decideAdmission({ bucket: fullBucket(roomy, 0), inFlight, activeTenants, signals: behind }, roomy, 0).refusal?.code ?? null;
    // One tenant: its share is the whole bound.
    expect(decide(99, 1)).to.equal(null);
    expect(decide(100, 1)).to.equal('SERVICE.OVERLOADED');
    // Four tenants in flight: 25 each.
    expect(decide(24, 4)).to.equal(null);
    expect(decide(25, 4)).to.equal('SERVICE.OVERLOADED');
    // A bound of 0 leaves no share: every write waits for the pipeline.
    expect(decideAdmission({ bucket: fullBucket(roomy, 0), inFlight: 0, activeTenants: 3, signals: { backlogRecords: 1, freeDiskBytes: 10_000 } }, { ...roomy, maxBacklogRecords: 0 }, 0).refusal?.code).to.equal('SERVICE.OVERLOADED');
  });

  it('refuses nothing on a signal it could not read, and checks no disk with a floor of 0', () => {
    expect(at(0, 0, { backlogRecords: null, freeDiskBytes: null }).refusal).to.equal(null);
    expect(decideAdmission({ bucket: fullBucket(policy, 0), inFlight: 0, activeTenants: 1, signals: { backlogRecords: 0, freeDiskBytes: 0 } }, { ...policy, minFreeDiskBytes: 0 }, 0).refusal).to.equal(null);
    expect(at(0, 0, { backlogRecords: 100, freeDiskBytes: 1_000 }).refusal).to.equal(null);
  });

  it('applies to the routes that create a job, not to searches, reads or webhooks', () => {
    for (const [method, path] of [['POST', '/v1/memory'], ['POST', '/v1/memory/'], ['POST', '/V1/Memory'], ['DELETE', '/V1/USERS/alice/'], ['POST', '/v1/memory/image'], ['POST', '/v1/ingest/document/upload'], ['PATCH', '/v1/memories/mem_1'], ['DELETE', '/v1/memories/mem_1'], ['DELETE', '/v1/memories'], ['DELETE', '/v1/users/alice']] as const) {
      expect(createsJob(method, path), `${method} ${path}`).to.equal(true);
    }
    for (const [method, path] of [['POST', '/v1/search'], ['POST', '/v1/search/image'], ['GET', '/v1/memories'], ['GET', '/v1/jobs/j'], ['POST', '/v1/webhooks'], ['DELETE', '/v1/webhooks/w'], ['POST', '/v1/memory/x'], ['PATCH', '/v1/memories/a/history']] as const) {
      expect(createsJob(method, path), `${method} ${path}`).to.equal(false);
    }
  });

  describe('the readings behind it', () => {
    const silent = createLogger({}, 'silent');
    const noJobs = { get: async () => undefined } as unknown as JobStore;

    it('treats a backlog reading that hangs as unknown after its timeout: a request waiting on it is answered, not held', async () => {
      let clock = 0;
      let reading: () => Promise<number> = async () => 500;
      const admission = new Admission({ ...policy, ratePerS: 100, burst: 100, maxBacklogRecords: 0 }, {
        jobs: noJobs, logger: silent, now: () => clock, readTimeoutMs: 50,
        backlogRecords: () => reading(), freeDiskBytes: async () => 1e12,
      });
      await admission.refresh();
      expect(await admission.admit('acme').catch((error: unknown) => error)).to.be.instanceOf(AdmissionRefused);

      // The engine stops answering: the stale reading that refuses is read again, and that read never returns.
      reading = () => new Promise<number>(() => undefined);
      clock += 2_000;
      const started = Date.now();
      const admitted = await admission.admit('acme');
      expect(Date.now() - started).to.be.lessThan(1_000);
      expect(admitted.headers['ratelimit-limit']).to.equal('100');
      admitted.release();
    });

    it('behind its bound, refuses the tenant that floods and admits the one that sends a little', async () => {
      const unsettled = { get: async () => ({ state: 'Accepted' }) } as unknown as JobStore;
      const admission = new Admission({ ...policy, ratePerS: 1_000, burst: 1_000, maxInFlight: 1_000, maxBacklogRecords: 10 }, {
        jobs: unsettled, logger: silent, backlogRecords: async () => 50, freeDiskBytes: async () => 1e12,
      });
      await admission.refresh();
      for (let i = 0; i < 5; i++) admission.accepted('loud', `job_loud_${i}`);
      admission.accepted('quiet', 'job_quiet_0');
      // Two tenants in flight: a share of 5 each; the loud one holds 5.
      expect(await admission.admit('loud').catch((error: unknown) => error)).to.be.instanceOf(AdmissionRefused);
      const quiet = await admission.admit('quiet');
      quiet.release();
    });
  });
});

