import { expect } from 'chai';
import { retry, backoffDelay, RetriesExhaustedError } from './retry.js';
import { isEngineOutage, MemoryServiceError } from './errors.js';

describe('retry', () => {
  it('returns the first success after retriable failures', async () => {
    let calls = 0;
    const value = await retry(async () => {
      calls++;
      if (calls < 3) throw new MemoryServiceError('X.BUSY', 'busy', { retriable: true });
      return 'ok';
    }, { initialDelayMs: 1, retries: 5 });
    expect(value).to.equal('ok');
    expect(calls).to.equal(3);
  });

  it('gives up at once on a non-retriable error and keeps it as the cause', async () => {
    let calls = 0;
    const failure = new MemoryServiceError('X.BAD', 'bad input');
    try {
      await retry(async () => { calls++; throw failure; }, { initialDelayMs: 1 });
      expect.fail('should have thrown');
    } catch (error) {
      expect(error).to.be.instanceOf(RetriesExhaustedError);
      expect((error as Error).cause).to.equal(failure);
      expect(calls).to.equal(1);
    }
  });

  it('stops after the configured number of retries', async () => {
    let calls = 0;
    try {
      await retry(async () => { calls++; throw new Error('flaky'); }, { initialDelayMs: 1, retries: 2 });
      expect.fail('should have thrown');
    } catch (error) {
      expect((error as RetriesExhaustedError).attempts).to.equal(3);
      expect(calls).to.equal(3);
    }
  });

  it('draws jittered delays under an exponential ceiling', () => {
    const opts = { initialDelayMs: 100, maxDelayMs: 1000, factor: 2 };
    expect(backoffDelay(0, opts, () => 1)).to.equal(100);
    expect(backoffDelay(3, opts, () => 1)).to.equal(800);
    expect(backoffDelay(10, opts, () => 1)).to.equal(1000);
    expect(backoffDelay(3, opts, () => 0)).to.equal(0);
  });
});

describe('isEngineOutage', () => {
  const unavailable = (code: string, retriable = true) => new MemoryServiceError(code, 'no answer', { retriable });

  it('is an engine adapter\'s retriable UNAVAILABLE, directly or as the last error of a retry loop', async () => {
    expect(isEngineOutage(unavailable('JOBS.UNAVAILABLE'))).to.equal(true);
    expect(isEngineOutage(unavailable('EVENTLOG.UNAVAILABLE'))).to.equal(true);
    const exhausted = await retry(() => Promise.reject(unavailable('KEYS.UNAVAILABLE')), { retries: 1, initialDelayMs: 1 }).catch((error: unknown) => error);
    expect(exhausted).to.be.instanceOf(RetriesExhaustedError);
    expect(isEngineOutage(exhausted)).to.equal(true);
  });

  it('is an engine with no room left to write, whether it will lift by itself (Elasticsearch\'s flood stage) or not (LMDB)', () => {
    expect(isEngineOutage(unavailable('VECTORS.DISK_FULL'))).to.equal(true);
    expect(isEngineOutage(unavailable('JOBS.DISK_FULL', false))).to.equal(true);
    expect(isEngineOutage(unavailable('FILES.DISK_FULL'))).to.equal(false);
  });

  it('is an engine that refuses the service\'s credentials: every record would fail the same until they are mended', () => {
    expect(isEngineOutage(unavailable('JOBS.UNAUTHORIZED', false))).to.equal(true);
    expect(isEngineOutage(unavailable('REGISTRY.UNAUTHORIZED', false))).to.equal(true);
    expect(isEngineOutage(unavailable('REQUEST.UNAUTHORIZED', false))).to.equal(false);
    // The blob store can refuse one object alone (a retention lock): that record's job fails instead.
    expect(isEngineOutage(unavailable('BLOB.UNAUTHORIZED', false))).to.equal(false);
  });

  it('is not a refusal, an unknown error, or a file worker that cannot start', () => {
    expect(isEngineOutage(unavailable('VECTORS.REJECTED', false))).to.equal(false);
    expect(isEngineOutage(unavailable('VECTORS.UNAVAILABLE', false))).to.equal(false);
    expect(isEngineOutage(new Error('ECONNRESET'))).to.equal(false);
    expect(isEngineOutage(unavailable('FILES.UNAVAILABLE'))).to.equal(false);
  });
});
