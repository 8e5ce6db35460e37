import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AvroCodec } from '@memory/contracts';
import { createApiKeyRegistry, createForgetting, createHttpApi, createIdempotency, createJobIdIssuer, createUpdating, hashApiKey } from '@memory/http-api';
import { createEmbeddedIdempotencyStore } from '@memory/jobs-embedded';
import { createLogger, MemoryServiceError, RequestError } from '@memory/platform';
import type { EventLog, IdempotencyStore, JobStore, StoredMemory, VectorStore } from '@memory/ports';

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

/**
 * PATCH and DELETE over HTTP with an Idempotency-Key, when the log took the first attempt's event and its answer was
 * lost (a 503): the retry with the same key must accept that same job, as POST /v1/memory does, not a second one (a
 * second version of the memory, or a later erasure boundary).
 */
describe('a keyed PATCH or DELETE retried after an append whose answer was lost', () => {
  const KEY = 'idempotency-routes-key-0123456789';
  const logger = createLogger({ app: 'test' }, 'silent');
  const memoryId = 'mem_job_1700000000000_alice_0';
  let dir: string;
  let store: IdempotencyStore;
  let server: Server;
  let port: number;
  let clock: number;
  /** Every event the log took, as the edge encoded it (here: as JSON), and whether the next append loses its answer. */
  let appended: Array<{ name: string; jobId: string; acceptedAt: number; memoryId?: string | null }>;
  let loseNextAnswer: boolean;
  let erasedBefore: number[];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'idempotency-routes-'));
    store = createEmbeddedIdempotencyStore({ dir });
    clock = 1_800_000_000_000;
    appended = [];
    loseNextAnswer = false;
    erasedBefore = [];
    const log = {
      append: async (_topic: string, records: Array<{ value: Buffer }>) => {
        for (const record of records) appended.push(JSON.parse(record.value.toString('utf8')));
        if (loseNextAnswer) {
          loseNextAnswer = false;
          throw new MemoryServiceError('EVENTLOG.UNAVAILABLE', 'the broker wrote the record and went away before acknowledging it', { retriable: true });
        }
      },
    } as unknown as EventLog;
    const codec = { encode: async (name: string, event: object) => Buffer.from(JSON.stringify({ name, ...event })) } as unknown as AvroCodec;
    const jobs = { get: async () => null, update: async () => undefined, forget: async () => 0 } as unknown as JobStore;
    const keys = { isErased: async () => false, forgotten: async () => new Set<string>(), forget: async () => 1, erase: async (_scope: unknown, before: number) => { erasedBefore.push(before); return 1; } };
    const memory = { id: memoryId, kind: 'text', originalContent: 'I parked on level 3', createdAt: '2027-01-15T10:00:00.000Z', userContext: null, metadata: null } as unknown as StoredMemory;
    const vectors = { getWithoutVectors: async () => [memory] } as unknown as VectorStore;
    const issueJobId = createJobIdIssuer({ claim: async () => 'claimed' });
    const deps = { log, codec, jobs, keys, logger, issueJobId };
    const idempotency = createIdempotency({ store, ttlMs: 24 * 3_600_000, leaseMs: 60_000, logger, now: () => clock });
    server = createServer(createHttpApi({
      apiKeys: createApiKeyRegistry(new Map([[hashApiKey(KEY), 'acme']])),
      logger,
      readiness: async () => ({ ready: true, checks: {}, lag: {} }),
      idempotency,
      updating: createUpdating({ ...deps, vectors }),
      forgetting: createForgetting(deps),
    }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterEach(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  const send = async (method: 'PATCH' | 'DELETE', path: string, key: string, body?: unknown) => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: { authorization: `Bearer ${KEY}`, 'x-end-user-id': 'alice', 'idempotency-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, replayed: res.headers.get('idempotent-replayed'), body: (await res.json()) as { jobId?: string; error?: { code: string } } };
  };

  it('PATCH: the retry answers the upd_job_ the lost attempt appended, so the correction stays one version', async () => {
    const change = { content: 'I parked on level 4' };
    loseNextAnswer = true;
    const first = await send('PATCH', `/v1/memories/${memoryId}`, 'fix-level', change);
    expect(first.status, JSON.stringify(first.body)).to.equal(503);
    expect(appended, 'the log took the first attempt\'s event all the same').to.have.length(1);
    const stored = appended[0]!;
    expect(stored.jobId).to.match(/^upd_job_\d{13}_alice$/);

    clock += 1_000;
    const retry = await send('PATCH', `/v1/memories/${memoryId}`, 'fix-level', change);
    expect(retry.status, JSON.stringify(retry.body)).to.equal(202);
    expect(retry.body.jobId, 'the job the log already holds, not a second update job').to.equal(stored.jobId);
    // The retry appends the same job again: the dual-writer finds that job in the memory's history and writes its
    // version once (nextVersion), so the log holds no second update job, and no second version is made.
    expect(new Set(appended.map((event) => event.jobId))).to.deep.equal(new Set([stored.jobId]));
    expect(appended.map((event) => [event.name, event.memoryId, event.acceptedAt])).to.deep.equal([
      ['ingestRequested', memoryId, stored.acceptedAt],
      ['ingestRequested', memoryId, stored.acceptedAt],
    ]);

    const again = await send('PATCH', `/v1/memories/${memoryId}`, 'fix-level', change);
    expect([again.status, again.replayed, again.body.jobId]).to.deep.equal([202, 'true', stored.jobId]);
    expect(appended).to.have.length(2);
  });

  it('DELETE: a retried forgetting or erasure accepts the del_job_ the lost attempt appended, with its boundary', async () => {
    for (const [path, key] of [[`/v1/memories/${memoryId}`, 'forget-one'], ['/v1/memories?job_id=job_1700000000000_alice', 'forget-job'], ['/v1/users/alice', 'erase-alice']] as const) {
      appended = [];
      erasedBefore = [];
      loseNextAnswer = true;
      const first = await send('DELETE', path, key);
      expect(first.status, `${path} ${JSON.stringify(first.body)}`).to.equal(503);
      const stored = appended[0]!;
      expect(stored.jobId, path).to.match(/^del_job_\d{13}_alice$/);
      clock += 1_000;
      const retry = await send('DELETE', path, key);
      expect([retry.status, retry.body.jobId], path).to.deep.equal([202, stored.jobId]);
      expect(appended.map((event) => [event.name, event.jobId, event.acceptedAt]), path).to.deep.equal([
        ['forgetRequested', stored.jobId, stored.acceptedAt],
        ['forgetRequested', stored.jobId, stored.acceptedAt],
      ]);
      if (key === 'erase-alice') expect(erasedBefore, 'the same boundary, not a later one').to.deep.equal([stored.acceptedAt, stored.acceptedAt]);
    }
  });
});
