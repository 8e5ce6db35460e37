import type { RequestHandler } from 'express';
import { fullBucket, mapWithConcurrency, refillBucket, RequestError, takeToken, withTimeout, type Logger, type TokenBucket } from '@memory/platform';
import type { JobStore } from '@memory/ports';
import { settled } from './job-wait.js';

/**
 * Backpressure on the routes that create jobs (README, "Limits and backpressure"): per tenant a token bucket and a
 * bound on jobs accepted and not yet settled; for everyone, a bound on the pipeline's backlog and a floor of free
 * disk. Searches and reads never pass through here.
 */
export interface AdmissionPolicy {
  /** MEMORY_TENANT_RATE_PER_S and MEMORY_TENANT_BURST. */
  ratePerS: number;
  burst: number;
  /** MEMORY_TENANT_MAX_IN_FLIGHT, counted by this process. */
  maxInFlight: number;
  /** MEMORY_MAX_BACKLOG_RECORDS: the furthest-behind consumer group's unprocessed records. */
  maxBacklogRecords: number;
  /** MEMORY_MIN_FREE_DISK_MB, in bytes; 0 turns the check off. */
  minFreeDiskBytes: number;
}

/** What the process last measured; null when unknown (not read yet, or the read failed): then it refuses nothing. */
export interface AdmissionSignals {
  backlogRecords: number | null;
  freeDiskBytes: number | null;
}

export interface Refusal {
  status: 429 | 503 | 507;
  code: 'RATE.LIMITED' | 'RATE.TOO_MANY_IN_FLIGHT' | 'SERVICE.OVERLOADED' | 'STORAGE.FULL';
  message: string;
  retryAfterSeconds: number;
}

/** The data folder's disk has less free space than the floor (a floor of 0 checks nothing). */
const storageFull = (signals: AdmissionSignals, policy: AdmissionPolicy) =>
  policy.minFreeDiskBytes > 0 && signals.freeDiskBytes !== null && signals.freeDiskBytes < policy.minFreeDiskBytes;

/** The pipeline is further behind than its bound. */
const pipelineBehind = (signals: AdmissionSignals, policy: AdmissionPolicy) => signals.backlogRecords !== null && signals.backlogRecords > policy.maxBacklogRecords;

/** How long a client should wait after each refusal that does not follow from the bucket. */
export const ADMISSION_RETRY_AFTER_S = { storageFull: 60, overloaded: 5, inFlight: 1 } as const;

/**
 * The decision for one write of a tenant at `now`, pure: the bucket to keep, the refusal if any, and the
 * RateLimit-* headers (IETF draft "RateLimit header fields for HTTP") to send either way. Checks run from the widest
 * to the narrowest, and a refused request takes no token.
 *
 * A pipeline behind its bound refuses the tenants that hold their share of the bound or more (the bound split evenly
 * among the tenants with jobs in flight, `activeTenants`), not every tenant: one tenant's flood must not stop another
 * that sends a little, and the tenants under their share together keep fewer jobs in flight than the bound.
 */
export function decideAdmission(state: { bucket: TokenBucket; inFlight: number; activeTenants: number; signals: AdmissionSignals }, policy: AdmissionPolicy, now: number) {
  const { signals } = state;
  const backlogShare = policy.maxBacklogRecords / Math.max(1, state.activeTenants);
  let refusal: Refusal | null = null;
  if (storageFull(signals, policy)) {
    refusal = { status: 507, code: 'STORAGE.FULL', message: 'the data folder is nearly full: nothing was accepted; what was accepted before is kept and still processed', retryAfterSeconds: ADMISSION_RETRY_AFTER_S.storageFull };
  } else if (pipelineBehind(signals, policy) && state.inFlight >= backlogShare) {
    refusal = { status: 503, code: 'SERVICE.OVERLOADED', message: 'the pipeline is behind: nothing was accepted, retry after Retry-After', retryAfterSeconds: ADMISSION_RETRY_AFTER_S.overloaded };
  } else if (state.inFlight >= policy.maxInFlight) {
    refusal = { status: 429, code: 'RATE.TOO_MANY_IN_FLIGHT', message: `this API key has ${policy.maxInFlight} jobs accepted and not yet finished: nothing was accepted, retry after Retry-After`, retryAfterSeconds: ADMISSION_RETRY_AFTER_S.inFlight };
  }
  let bucket = refillBucket(state.bucket, policy, now);
  if (!refusal) {
    // Only a request nothing else refused spends a token.
    const take = takeToken(bucket, policy, now);
    bucket = take.bucket;
    if (!take.allowed) {
      refusal = { status: 429, code: 'RATE.LIMITED', message: `over ${policy.ratePerS} requests per second (bursts of ${policy.burst}) for this API key: nothing was accepted, retry after Retry-After`, retryAfterSeconds: take.retryAfterSeconds };
    }
  }
  const headers = {
    'ratelimit-limit': String(policy.burst),
    'ratelimit-remaining': String(Math.floor(bucket.tokens)),
    'ratelimit-reset': String(Math.ceil((policy.burst - bucket.tokens) / policy.ratePerS)),
  };
  return { bucket, refusal, headers };
}

/**
 * The requests that create a job: what admission applies to. The path is read as Express's router matches it (any
 * case, one trailing slash or none), so `POST /V1/Memory/` is admitted as what it is routed to.
 */
export function createsJob(method: string, routedPath: string): boolean {
  const path = routedPath.toLowerCase().replace(/(.)\/$/, '$1');
  if (method === 'POST') return path === '/v1/memory' || path === '/v1/memory/image' || path === '/v1/ingest/document/upload';
  if (method === 'PATCH') return /^\/v1\/memories\/[^/]+$/.test(path);
  if (method === 'DELETE') return /^\/v1\/memories(\/[^/]+)?$/.test(path) || /^\/v1\/users\/[^/]+$/.test(path);
  return false;
}

/** A refusal as the error the handlers answer with (Retry-After from retryAfterSeconds), with its RateLimit-* headers. */
export class AdmissionRefused extends RequestError {
  constructor(refusal: Refusal, readonly headers: Record<string, string>) {
    super(refusal.status, refusal.code, refusal.message, { retryAfterSeconds: refusal.retryAfterSeconds });
  }
}

export interface AdmissionSources {
  jobs: JobStore;
  backlogRecords(): Promise<number>;
  freeDiskBytes(): Promise<number>;
  logger: Logger;
  now?: () => number;
  /** How long a reading may take before it counts as unknown (SIGNAL_READ_TIMEOUT_MS unless a test says otherwise). */
  readTimeoutMs?: number;
}

/** How stale the measured signals may be, and how often a tenant at its in-flight bound re-reads its oldest jobs. */
const SIGNALS_MAX_AGE_MS = 1_000;
const PRUNE_EVERY_MS = 250;
const PRUNE_BATCH = 256;
const PRUNE_MAX_BATCHES = 16;
/**
 * A reading slower than this is unknown: an engine in an outage can hold a read for half a minute, and a request
 * waiting on a reading would wait with it.
 */
const SIGNAL_READ_TIMEOUT_MS = 2_000;

interface TenantInFlight {
  tenantId: string;
  /** Accepted by this process, oldest first; some may have settled since (removed when the bound is reached). */
  jobs: Set<string>;
  /** Admitted requests still being answered, so concurrent requests cannot all pass at the bound. */
  reserved: number;
  prunedAt: number;
}

/**
 * The state behind decideAdmission: a bucket and the jobs in flight per tenant, and the measured signals, refreshed
 * in the background at most once a second. The in-flight count is of jobs this process accepted (one process in the
 * embedded mode; per edge in the distributed mode), an upper bound until the bound is reached, then settled jobs are
 * found in the job store, oldest first, and no longer counted.
 */
export class Admission {
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly inFlight = new Map<string, TenantInFlight>();
  private signals: AdmissionSignals = { backlogRecords: null, freeDiskBytes: null };
  private signalsAt = 0;
  private refreshing: Promise<void> | null = null;
  private readonly now: () => number;

  constructor(readonly policy: AdmissionPolicy, private readonly sources: AdmissionSources) {
    this.now = sources.now ?? Date.now;
  }

  /** Reads the backlog and the free disk space now; a failed read leaves that signal unknown. */
  refresh(): Promise<void> {
    this.refreshing ??= (async () => {
      const [backlog, disk] = await Promise.allSettled([
        withTimeout(this.sources.backlogRecords(), this.sources.readTimeoutMs ?? SIGNAL_READ_TIMEOUT_MS, 'reading the backlog'),
        withTimeout(this.sources.freeDiskBytes(), this.sources.readTimeoutMs ?? SIGNAL_READ_TIMEOUT_MS, 'reading the free disk space'),
      ]);
      for (const failed of [backlog, disk].filter((result) => result.status === 'rejected')) {
        this.sources.logger.warn('admission signal unavailable', { error: String(failed.reason) });
      }
      this.signals = { backlogRecords: backlog.status === 'fulfilled' ? backlog.value : null, freeDiskBytes: disk.status === 'fulfilled' ? disk.value : null };
      this.signalsAt = this.now();
    })().finally(() => { this.refreshing = null; });
    return this.refreshing;
  }

  /** Admits one write of the tenant (its release() must be called once answered) or throws AdmissionRefused. */
  async admit(tenantId: string): Promise<{ headers: Record<string, string>; release: () => void }> {
    if (this.now() - this.signalsAt > SIGNALS_MAX_AGE_MS) {
      const refreshed = this.refresh();
      // A stale reading that would refuse is read again first: after a quiet spell the pipeline may have caught up.
      if (storageFull(this.signals, this.policy) || pipelineBehind(this.signals, this.policy)) await refreshed;
    }
    const tenant = this.tenant(tenantId);
    // Its count is exact only after a prune: needed at its in-flight bound, and when the pipeline is behind (its share).
    if (tenant.jobs.size + tenant.reserved >= this.policy.maxInFlight || pipelineBehind(this.signals, this.policy)) await this.prune(tenant);
    const now = this.now();
    const decision = decideAdmission(
      { bucket: this.buckets.get(tenantId) ?? fullBucket(this.policy, now), inFlight: tenant.jobs.size + tenant.reserved, activeTenants: this.activeTenants(), signals: this.signals },
      this.policy,
      now,
    );
    this.buckets.set(tenantId, decision.bucket);
    if (decision.refusal) throw new AdmissionRefused(decision.refusal, decision.headers);
    tenant.reserved++;
    let released = false;
    return {
      headers: decision.headers,
      release: () => {
        if (!released) tenant.reserved--;
        released = true;
      },
    };
  }

  /** A job this process accepted (acceptJob calls it), counted until the job store shows it settled. */
  accepted(tenantId: string, jobId: string): void {
    this.tenant(tenantId).jobs.add(jobId);
  }

  /** Tenants with a job of theirs accepted here and maybe not finished (an upper bound: counts shrink when pruned). */
  private activeTenants(): number {
    let active = 0;
    for (const tenant of this.inFlight.values()) if (tenant.jobs.size + tenant.reserved > 0) active++;
    return active;
  }

  private tenant(tenantId: string): TenantInFlight {
    let tenant = this.inFlight.get(tenantId);
    if (!tenant) this.inFlight.set(tenantId, (tenant = { tenantId, jobs: new Set(), reserved: 0, prunedAt: 0 }));
    return tenant;
  }

  private async prune(tenant: TenantInFlight): Promise<void> {
    if (this.now() - tenant.prunedAt < PRUNE_EVERY_MS) return;
    tenant.prunedAt = this.now();
    // Jobs settle roughly in the order they were accepted: batches of the oldest are read while each was settled to the
    // last, so a tenant accepting faster than one batch per prune is not held back by the bookkeeping.
    for (let batch = 0; batch < PRUNE_MAX_BATCHES; batch++) {
      const oldest = [...tenant.jobs].slice(0, PRUNE_BATCH);
      let unsettled = 0;
      await mapWithConcurrency(oldest, 8, async (jobId) => {
        // A job store that cannot answer keeps the job counted: the bound errs on the side of refusing.
        const job = await this.sources.jobs.get(tenant.tenantId, jobId).catch(() => undefined);
        if (job !== undefined && settled(job)) tenant.jobs.delete(jobId);
        else unsettled++;
      });
      if (unsettled > 0 || oldest.length < PRUNE_BATCH) return;
    }
  }
}

/** The Express side: admission on the routes that create a job, after the API key, before the body is read. */
export function admitWrites(admission: Admission): RequestHandler {
  return (req, res, next) => {
    if (!createsJob(req.method, req.path)) return next();
    admission.admit(res.locals['tenantId'] as string).then(
      ({ headers, release }) => {
        res.set(headers);
        res.once('close', release);
        next();
      },
      (error: unknown) => {
        if (error instanceof AdmissionRefused) res.set(error.headers);
        next(error);
      },
    );
  };
}
