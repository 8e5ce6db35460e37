import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createIdempotency } from '@memory/http-api';
import { createEmbeddedIdempotencyStore } from '@memory/jobs-embedded';
import { createLogger, MemoryServiceError, RequestError } from '@memory/platform';
import type { IdempotencyStore } from '@memory/ports';

// The reusable Idempotency-Key piece of the HTTP API over the embedded store, as memoryd wires them.
describe('createIdempotency over the embedded store', () => {
  const scope = { tenantId: 'acme', endUserId: 'alice' };
  let dir: string;
  let store: IdempotencyStore;
  let clock: number;
  const idempotency = () => createIdempotency({ store, ttlMs: 24 * 3_600_000, leaseMs: 60_000, logger: createLogger({ app: 'test' }, 'silent'), now: () => clock });

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'idempotency-piece-'));
    store = createEmbeddedIdempotencyStore({ dir });
    clock = 1_800_000_000_000;
  });

  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('runs a request without a key as it is, without fingerprinting it', async () => {
    let fingerprinted = false;
    const outcome = await idempotency().run({ scope, key: undefined, fingerprint: () => { fingerprinted = true; return 'f'; }, accept: async () => ({ status: 202, body: { jobId: 'j1' } }) });
    expect(outcome).to.deep.equal({ status: 202, body: { jobId: 'j1' }, replayed: false });
    expect(fingerprinted).to.equal(false);
  });

  it('hands the key and its job to the retry when accepting fails in an engine (it may have been accepted), keeping what the job refers to', async () => {
    const piece = idempotency();
    const discarded: string[] = [];
    const failing = piece.run({
      scope, key: 'k', fingerprint: () => 'f', newJobId: async () => 'job_1_alice',
      accept: async () => { throw new MemoryServiceError('EVENTLOG.UNAVAILABLE', 'the broker went away before acknowledging', { retriable: true }); },
      discard: async () => { discarded.push('first'); },
    });
    await failing.then(() => expect.fail('should have failed'), (error: MemoryServiceError) => expect(error.code).to.equal('EVENTLOG.UNAVAILABLE'));
    expect(discarded, 'the PDF the job may refer to is kept').to.deep.equal([]);
    // The retry a moment later, well within the lease, accepts the same job: the pipeline rewrites the same memory.
    clock += 1_000;
    const accepted: Array<string | undefined> = [];
    const send = () => piece.run({ scope, key: 'k', fingerprint: () => 'f', newJobId: async () => 'job_2_alice', accept: async (jobId) => { accepted.push(jobId); return { status: 202, body: { jobId } }; } });
    expect(await send()).to.deep.equal({ status: 202, body: { jobId: 'job_1_alice' }, replayed: false });
    expect(await send()).to.deep.equal({ status: 202, body: { jobId: 'job_1_alice' }, replayed: true });
    expect(accepted).to.deep.equal(['job_1_alice']);
  });

  it('frees the key when the request is refused (a 4xx), so the corrected request gets a job of its own', async () => {
    const piece = idempotency();
    const discarded: string[] = [];
    const refused = piece.run({
      scope, key: 'k', fingerprint: () => 'f', newJobId: async () => 'job_1_alice',
      accept: async () => { throw new RequestError(409, 'REQUEST.END_USER_ERASED', 'erased meanwhile'); },
      discard: async () => { discarded.push('first'); },
    });
    await refused.then(() => expect.fail('should have failed'), (error: RequestError) => expect(error.code).to.equal('REQUEST.END_USER_ERASED'));
    expect(discarded).to.deep.equal(['first']);
    const retry = await piece.run({ scope, key: 'k', fingerprint: () => 'f', newJobId: async () => 'job_2_alice', accept: async (jobId) => ({ status: 202, body: { jobId } }) });
    expect(retry).to.deep.equal({ status: 202, body: { jobId: 'job_2_alice' }, replayed: false });
  });

  it('discards what a replayed, reused or in-progress request left, and answers 422 and 409 with stable codes', async () => {
    const piece = idempotency();
    const discarded: string[] = [];
    let release!: () => void;
    const first = piece.run({
      scope, key: 'k', fingerprint: () => 'f',
      accept: () => new Promise((resolve) => { release = () => resolve({ status: 202, body: { jobId: 'j1' } }); }),
      discard: async () => { discarded.push('first'); },
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const codeOf = (task: Promise<unknown>) => task.then(() => 'resolved', (error: MemoryServiceError & { details?: Record<string, unknown> }) => `${error.code} ${JSON.stringify(error.details ?? {})}`);
    const duplicate = (fingerprint: string, name: string) => piece.run({ scope, key: 'k', fingerprint: () => fingerprint, accept: async () => expect.fail('must not accept'), discard: async () => { discarded.push(name); } });
    expect(await codeOf(duplicate('f', 'in progress'))).to.equal('IDEMPOTENCY.IN_PROGRESS {"retryAfterSeconds":1}');
    expect(await codeOf(duplicate('g', 'other request'))).to.equal('IDEMPOTENCY.KEY_REUSED {}');
    release();
    expect(await first).to.deep.equal({ status: 202, body: { jobId: 'j1' }, replayed: false });
    expect(await duplicate('f', 'replay')).to.deep.equal({ status: 202, body: { jobId: 'j1' }, replayed: true });
    expect(discarded).to.deep.equal(['in progress', 'other request', 'replay']);
  });

  it('forgets a key once its time to live has passed, and a later keyed request sweeps the expired records away', async () => {
    const piece = idempotency();
    let accepts = 0;
    const send = (key: string) => piece.run({ scope, key, fingerprint: () => 'f', accept: async () => ({ status: 202, body: { jobId: `j${++accepts}` } }) });
    await send('old');
    await send('stale');
    clock += 25 * 3_600_000;
    expect((await send('old')).replayed, 'expired: a new request').to.equal(false);
    expect(accepts).to.equal(3);
    // 'stale' was never asked for again: the sweep this request started (before its claim, in LMDB's write order) removed it.
    expect(await store.forgetUser(scope)).to.equal(1);
  });
});
