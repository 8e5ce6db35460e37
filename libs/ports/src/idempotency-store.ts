import type { Scope } from './memory.js';

/** The answer a request got, kept so that a retry with the same Idempotency-Key gets it again. */
export interface StoredResponse {
  status: number;
  /** The JSON body as it was sent. */
  body: unknown;
}

/** Proof of holding a key: only its holder may complete or release it. Opaque to callers. */
export interface IdempotencyClaim {
  readonly token: string;
}

export interface ClaimRequest {
  /** What makes two requests "the same" (see libs/http-api idempotency.ts); compared as an opaque string. */
  fingerprint: string;
  /** ms epoch; the store never reads the clock itself, so tests can move time. */
  now: number;
  /** How long the claim holds without being completed: a process that died holding it frees the key after this. */
  leaseMs: number;
  /** How long the record is kept from now (and again from completion). */
  ttlMs: number;
  /**
   * The job this request creates if it is the first with its key, kept with the claim: should the holder die
   * between accepting the job and storing its answer, the request's retry accepts the same job again (see
   * ClaimResult's earlierJobId) rather than a second one.
   */
  jobId?: string;
}

export type ClaimResult =
  | {
      state: 'claimed';
      claim: IdempotencyClaim;
      /**
       * The job id an earlier claim of this same request (same fingerprint) named when its lease ran out before it
       * answered: its holder may have accepted that job, so the retry accepts it again under that id, and the
       * pipeline, whose writes are upserts by ids derived from it, rewrites the same memory. Null otherwise.
       */
      earlierJobId: string | null;
    }
  | { state: 'completed'; fingerprint: string; response: StoredResponse }
  | { state: 'in-progress'; fingerprint: string };

/**
 * Idempotency keys of one tenant and end user, claimed atomically: of several concurrent claims of one key, across
 * processes too, exactly one gets 'claimed'. An expired record, or an in-progress one whose lease ran out, counts as
 * absent.
 */
export interface IdempotencyStore {
  claim(scope: Scope, key: string, request: ClaimRequest): Promise<ClaimResult>;
  /** Stores the response under a claim still held; false when the claim was lost (its lease ran out and another took it). */
  complete(scope: Scope, key: string, claim: IdempotencyClaim, response: StoredResponse, options: { now: number; ttlMs: number }): Promise<boolean>;
  /** Gives the key up (the request failed and created nothing), so a retry can claim it; nothing when the claim was lost. */
  release(scope: Scope, key: string, claim: IdempotencyClaim): Promise<void>;
  /**
   * Ends the claim's lease at `now`, keeping its job id: the request failed in a way that may have accepted its job
   * all the same (the event log's answer was lost), so a retry takes the claim over at once and accepts that same
   * job again (earlierJobId), as after a holder that died. Nothing when the claim was lost.
   */
  abandon(scope: Scope, key: string, claim: IdempotencyClaim, now: number): Promise<void>;
  /** Removes the records that expired before `now`; returns how many. */
  removeExpired(now: number): Promise<number>;
  /**
   * Removes the records of one end user whose request created one of these jobs (jobIdOfRecord), whatever their
   * state: the jobs were forgotten, so neither their fingerprints nor their ids stay, and the same request with the
   * same key is a new one. Returns how many.
   */
  forgetJobs(scope: Scope, jobIds: string[]): Promise<number>;
  /** Removes every record of one end user (erasure); returns how many. */
  forgetUser(scope: Scope): Promise<number>;
  /** Removes every record of one tenant; returns how many. */
  forgetTenant(tenantId: string): Promise<number>;
  close(): Promise<void>;
}

/**
 * The job a record's request created: the one kept with its claim (ClaimRequest.jobId; every route that creates a job
 * names it so) or, for a record that names none there (a claim made without one, such as PATCH's and DELETE's before
 * they named their jobs with the claim), the answer's `jobId`. Null for a record that names neither (a claim without
 * a job id, still being answered). Stores keep it with the record when they
 * store the answer, so forgetJobs finds records by it.
 */
export function jobIdOfRecord(record: { response: StoredResponse | null; jobId?: string | null }): string | null {
  if (record.jobId) return record.jobId;
  const body = record.response?.body;
  const answered = typeof body === 'object' && body !== null ? (body as { jobId?: unknown }).jobId : undefined;
  return typeof answered === 'string' && answered !== '' ? answered : null;
}

/**
 * What a store keeps of a claim, as far as taking it over is concerned. The job id of a record a claim replaces,
 * when that record was a claim of the same request (same fingerprint), not expired, whose holder never answered
 * (its lease ran out): the job its holder may have accepted. Null otherwise: a new request gets a new job.
 */
export function abandonedJobId(record: { fingerprint: string; expiresAt: number; response: StoredResponse | null; jobId?: string | null } | undefined | null, request: ClaimRequest): string | null {
  if (!record || record.response !== null || record.expiresAt <= request.now || record.fingerprint !== request.fingerprint) return null;
  return record.jobId ?? null;
}
