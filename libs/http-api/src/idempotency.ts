import { createHash } from 'node:crypto';
import { RequestError, withTimeout, type Logger } from '@memory/platform';
import { idempotencyTakeovers } from '@memory/metrics';
import type { IdempotencyStore, Scope, StoredResponse } from '@memory/ports';

/** The request header, and the response header that marks an answer given again. */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';

/** 1-255 printable ASCII characters (space to tilde). */
const KEY = /^[\x20-\x7e]{1,255}$/;

/** The header as sent, checked: undefined when absent; 400 IDEMPOTENCY.INVALID_KEY when malformed. */
export function validateIdempotencyKey(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (!KEY.test(raw)) throw new RequestError(400, 'IDEMPOTENCY.INVALID_KEY', 'Idempotency-Key must be 1-255 printable ASCII characters (a UUID is a good choice)');
  return raw;
}

/**
 * What makes two requests with one key "the same request": the route (method and path template) and the parts of the
 * request that decide what it does, each given by name. Parts are hashed with their lengths, so no two different
 * lists of parts hash alike by shifting bytes from one part to the next.
 */
export function requestFingerprint(route: string, parts: Record<string, string | Buffer | null>): string {
  const hash = createHash('sha256');
  const add = (value: string | Buffer) => {
    const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
    hash.update(`${bytes.length}:`).update(bytes);
  };
  add(route);
  for (const [name, value] of Object.entries(parts)) {
    add(name);
    if (value === null) hash.update('-');
    else add(value);
  }
  return hash.digest('hex');
}

export interface IdempotentRequest {
  scope: Scope;
  /** The Idempotency-Key header as received; undefined runs `accept` as if this piece were not there. */
  key: string | undefined;
  /** The request's fingerprint (requestFingerprint); called only when a key was sent. */
  fingerprint: () => string;
  /**
   * A new id for the job this request creates (every route that creates a job gives one: ingestion, PATCH, DELETE);
   * called only when a key was sent. It is kept with the key's claim, so that a retry after its holder died mid-request accepts the same job
   * again rather than a second one.
   */
  newJobId?: () => Promise<string>;
  /**
   * Does the work and gives the answer to keep; a throw frees the key again (a 4xx), or hands its job id to the retry
   * (an engine's failure, which may have come after the job was accepted: see mayHaveAccepted). `jobId` is the job to
   * accept: the one named with the claim (this request's, or an earlier holder's of the same request), or undefined
   * for a new job of the route's own.
   */
  accept: (jobId: string | undefined) => Promise<StoredResponse>;
  /**
   * Undoes what the route did before calling run (the PDF's blob, stored while its hash was computed) when this
   * request creates nothing: a replay, a key reused for another request, a key in progress, or an accept that failed.
   */
  discard?: () => Promise<void>;
}

export interface IdempotentOutcome extends StoredResponse {
  /** True when this is the stored answer of an earlier request with the same key (send Idempotent-Replayed: true). */
  replayed: boolean;
}

export interface IdempotencyOptions {
  store: IdempotencyStore;
  /** How long a key is remembered after its answer (MEMORY_IDEMPOTENCY_TTL_HOURS). */
  ttlMs: number;
  /** How long a claim blocks its key when its holder dies before answering; default 60 s. */
  leaseMs?: number;
  /** How often, at most, a keyed request starts a sweep of expired records; default hourly. */
  sweepEveryMs?: number;
  logger: Logger;
  now?: () => number;
}

/** Seconds a client is told to wait (Retry-After) when its key's first request is still being answered. */
export const IN_PROGRESS_RETRY_AFTER_S = 1;

/**
 * How long an accepted request's answer waits for the store to keep it. The job is accepted either way; a retry that
 * finds no kept answer sees 409 until the claim's lease ends, then takes it over and accepts the same job.
 */
const ANSWER_KEEP_WAIT_MS = 2_000;

/**
 * Idempotency-Key for every route that creates a job: `run` claims the key in the shared store (one atomic
 * operation), runs `accept`, and stores its answer (one more); a retry with the same key and the same request gets
 * that answer again, a different request with the key is refused (422), and one that arrives while the first is
 * still being answered is told to retry (409 with Retry-After). A request without the key costs nothing here.
 */
export function createIdempotency(options: IdempotencyOptions) {
  const { store, ttlMs, logger } = options;
  const leaseMs = options.leaseMs ?? 60_000;
  const sweepEveryMs = options.sweepEveryMs ?? 3_600_000;
  const now = options.now ?? Date.now;
  let nextSweep = 0;

  // Expired records are ignored by claims anyway; the sweep only gives their space back, so it runs in the background.
  const sweepIfDue = (at: number) => {
    if (at < nextSweep) return;
    nextSweep = at + sweepEveryMs;
    store.removeExpired(at).then(
      (removed) => { if (removed > 0) logger.info('removed expired idempotency records', { removed }); },
      (error: unknown) => logger.warn('could not remove expired idempotency records', { error: String(error) }),
    );
  };

  const discarding = async (request: IdempotentRequest) => {
    await request.discard?.().catch((error: unknown) => logger.warn('could not discard what a request without effect left behind', { error: String(error) }));
  };

  return {
    async run(request: IdempotentRequest): Promise<IdempotentOutcome> {
      const key = validateIdempotencyKey(request.key);
      if (key === undefined) {
        try {
          return { ...(await request.accept(undefined)), replayed: false };
        } catch (error) {
          await discarding(request);
          throw error;
        }
      }
      const { scope } = request;
      const fingerprint = request.fingerprint();
      let jobId: string | undefined;
      let result;
      try {
        jobId = await request.newJobId?.();
        const claimedAt = now();
        sweepIfDue(claimedAt);
        result = await store.claim(scope, key, { fingerprint, now: claimedAt, leaseMs, ttlMs, ...(jobId === undefined ? {} : { jobId }) });
      } catch (error) {
        await discarding(request);
        throw error;
      }
      if (result.state !== 'claimed') {
        await discarding(request);
        if (result.fingerprint !== fingerprint) {
          throw new RequestError(422, 'IDEMPOTENCY.KEY_REUSED', 'this Idempotency-Key was used for a different request: use a new key for a new request');
        }
        if (result.state === 'in-progress') {
          throw new RequestError(409, 'IDEMPOTENCY.IN_PROGRESS', 'the first request with this Idempotency-Key is still being answered: retry after a moment', {
            retryAfterSeconds: IN_PROGRESS_RETRY_AFTER_S,
          });
        }
        return { ...result.response, replayed: true };
      }
      let response: StoredResponse;
      try {
        if (result.earlierJobId) {
          idempotencyTakeovers.inc();
          logger.warn('an idempotency claim whose holder never answered was taken over: accepting its job again', { jobId: result.earlierJobId });
        }
        response = await request.accept(result.earlierJobId ?? jobId);
      } catch (error) {
        if (mayHaveAccepted(error)) {
          // The job may be accepted all the same (the log took the event and its answer was lost): the retry gets
          // this job id again and the pipeline's upserts rewrite the same memory; what the job refers to is kept.
          await store.abandon(scope, key, result.claim, now()).catch((abandonError: unknown) =>
            logger.warn('could not hand an idempotency key over to its retry; it does so when its lease ends', { error: String(abandonError) }),
          );
          throw error;
        }
        await store.release(scope, key, result.claim).catch((releaseError: unknown) =>
          logger.warn('could not release an idempotency key; it frees itself when its lease ends', { error: String(releaseError) }),
        );
        await discarding(request);
        throw error;
      }
      // The job is accepted whatever happens now: a failure to keep the answer is logged, not sent to the client.
      try {
        const kept = await withTimeout(store.complete(scope, key, result.claim, response, { now: now(), ttlMs }), ANSWER_KEEP_WAIT_MS, 'keeping the answer');
        if (!kept) logger.warn('an idempotency claim was taken over before its answer was stored (its lease ran out)', { leaseMs });
      } catch (error) {
        logger.warn('could not store the answer of an idempotent request', { error: String(error) });
      }
      return { ...response, replayed: false };
    },
  };
}

export type Idempotency = ReturnType<typeof createIdempotency>;

/**
 * Whether a failed accept may have accepted its job all the same: any failure but the client's own (a 4xx). An
 * append whose answer was lost (a broker that wrote the record and went down before acknowledging it) is a 503 whose
 * job exists; the other engine failures happen before the append, and for them reusing the job id costs nothing.
 */
function mayHaveAccepted(error: unknown): boolean {
  return !(error instanceof RequestError && error.status < 500);
}
