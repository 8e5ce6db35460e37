import { expect } from 'chai';
import { fullBucket, refillBucket, takeToken } from './token-bucket.js';

describe('token bucket', () => {
  const policy = { ratePerS: 2, burst: 3 };

  it('allows a burst, then refuses with the seconds to the next token', () => {
    let bucket = fullBucket(policy, 0);
    const takes = [];
    for (let i = 0; i < 4; i++) {
      const take = takeToken(bucket, policy, 0);
      bucket = take.bucket;
      takes.push(take);
    }
    expect(takes.map((take) => take.allowed)).to.deep.equal([true, true, true, false]);
    expect(takes.map((take) => take.remaining)).to.deep.equal([2, 1, 0, 0]);
    expect(takes[3]).to.include({ retryAfterSeconds: 1, resetSeconds: 2 });
    expect(takes[0]!.retryAfterSeconds).to.equal(0);
  });

  it('refills at the rate, never above the burst, and not when the clock goes back', () => {
    const empty = { tokens: 0, at: 1_000 };
    expect(refillBucket(empty, policy, 1_500).tokens).to.equal(1);
    expect(refillBucket(empty, policy, 60_000).tokens).to.equal(3);
    expect(refillBucket(empty, policy, 500)).to.deep.equal(empty);
    expect(takeToken(empty, policy, 1_499).allowed).to.equal(false);
    expect(takeToken(empty, policy, 1_500).allowed).to.equal(true);
  });

  it('asks a slow bucket to wait for its next whole token', () => {
    const slow = { ratePerS: 1, burst: 1 };
    const take = takeToken({ tokens: 0.25, at: 0 }, slow, 0);
    expect(take).to.include({ allowed: false, retryAfterSeconds: 1, remaining: 0 });
    expect(takeToken({ tokens: 0, at: 0 }, { ratePerS: 0.1 as number, burst: 1 }, 0).retryAfterSeconds).to.equal(10);
  });
});
