/** A token bucket's policy: `ratePerS` tokens flow in per second, up to `burst` held at once. */
export interface TokenBucketPolicy {
  ratePerS: number;
  burst: number;
}

/** A bucket's state: the tokens it held at `at` (ms epoch). A new bucket is full. */
export interface TokenBucket {
  tokens: number;
  at: number;
}

export interface TokenTake {
  /** The bucket after the attempt (one token fewer when allowed). */
  bucket: TokenBucket;
  allowed: boolean;
  /** Whole tokens left after the attempt. */
  remaining: number;
  /** Seconds until the bucket is full again (0 when it is). */
  resetSeconds: number;
  /** Seconds until the next token, when refused; 0 when allowed. */
  retryAfterSeconds: number;
}

export function fullBucket(policy: TokenBucketPolicy, now: number): TokenBucket {
  return { tokens: policy.burst, at: now };
}

/** The bucket refilled up to `now`; a clock that went backwards refills nothing. */
export function refillBucket(bucket: TokenBucket, policy: TokenBucketPolicy, now: number): TokenBucket {
  const elapsedS = Math.max(0, now - bucket.at) / 1000;
  return { tokens: Math.min(policy.burst, bucket.tokens + elapsedS * policy.ratePerS), at: Math.max(now, bucket.at) };
}

/** Takes one token at `now` if there is one. Pure: the caller keeps the returned bucket. */
export function takeToken(bucket: TokenBucket, policy: TokenBucketPolicy, now: number): TokenTake {
  const refilled = refillBucket(bucket, policy, now);
  const allowed = refilled.tokens >= 1;
  const after = allowed ? { tokens: refilled.tokens - 1, at: refilled.at } : refilled;
  return {
    bucket: after,
    allowed,
    remaining: Math.floor(after.tokens),
    resetSeconds: Math.ceil((policy.burst - after.tokens) / policy.ratePerS),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - after.tokens) / policy.ratePerS)),
  };
}
