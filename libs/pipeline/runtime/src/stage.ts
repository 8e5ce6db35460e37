import { isDocumentJob, isUpdateJob, jobIdOfMemory, jobStatusOf, type EventName, type EventPayloads } from '@memory/contracts';
import type { Scope } from '@memory/ports';

/** One event a stage wants published; the runner frames it, keys it by tenant/end user and appends it durably. */
export type Emit = { [N in EventName]: { event: N; value: EventPayloads[N] } }[EventName];

/** A decoded input record, with where it came from (for dead letters and logs). */
export interface Incoming<N extends EventName = EventName> {
  event: N;
  value: EventPayloads[N];
  topic: string;
  partition: number;
  offset: number;
  key: string;
  /** Log append time, ms epoch: stable across replays, unlike the wall clock. */
  timestamp: number;
  /** The X-Request-Id of the request whose job this record belongs to, from its headers (REQUEST_ID_RECORD_HEADER). */
  requestId?: string;
}

/**
 * What a record sealed with a forgotten key still says in clear: the key's id (see SEALED_EVENTS) and the record's
 * job (its job-id header, null when it has none). Its tenant and end user come with it as a Scope.
 */
export interface ForgottenRecord {
  keyId: string;
  jobId: string | null;
}

/**
 * A pipeline stage: the consumer group it runs as, what it reads, and a process function over a batch. `process`
 * must be a function of its input and the stores (no wall clock, no randomness), so a replay writes the same
 * results. It returns, per input, the events to publish; throwing fails the whole batch (the runner retries, then
 * isolates the record that keeps failing).
 */
export interface StageSpec<In extends EventName, Deps> {
  name: string;
  group: string;
  inputs: readonly In[];
  outputs: readonly EventName[];
  /**
   * True when `process` only computes (it writes to no store), so slices of a batch may be processed at the same
   * time: the runner then works on several slices at once and publishes their outputs in order. The enricher is
   * the one: its next slice is enriched, and its last one published, while the model embeds.
   */
  computesOnly?: boolean;
  /**
   * True when everything `process` reads and writes belongs to its records' own end users (their memories, graph,
   * centroid), so the batches of different end users may be in flight at once, each end user's records still in log
   * order (see KeyOrder): one end user's batch then never waits for another's writes. A compute-only stage is so too.
   */
  endUsersApart?: boolean;
  process(batch: Array<Incoming<In>>, deps: Deps): Promise<Emit[][]>;
  /**
   * For a stage that writes stores: removes what it may have written for the subjects of records it can no longer
   * read (their keys destroyed), before the runner commits past them. An earlier delivery of such a record may have
   * written after the forgetter removed what was there and stopped before its own check of the tombstones (a crash,
   * an engine outage that sent the batch back to the log); skipped, it would stay in the stores for good. Called
   * once per end user of a batch; must be idempotent, and write nothing when nothing is there.
   */
  takeBackForgotten?(scope: Scope, records: ForgottenRecord[], deps: Deps): Promise<void>;
}

/**
 * What a stage throws when a record fails after it carried out earlier records of the batch whose work cannot be
 * done twice alike (the forgetter: a second run finds nothing left and its receipt would count zeros): the outputs
 * of those records, which the runner publishes before it tries again from the record that failed.
 */
export class FailedAfter extends Error {
  constructor(
    readonly outputs: Emit[][],
    override readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = 'FailedAfter';
  }
}

/** Order of the stages, for job progress: a job never moves back to an earlier stage. */
export const STAGE_ORDER = ['edge', 'temporal-resolver', 'enricher', 'dual-writer', 'centroid-calibrator', 'forgetter'] as const;

/** Builds the progress report a stage emits for each job it handles. */
export function progress(stage: string, job: { jobId: string; tenantId: string; endUserId: string }, extra: Partial<EventPayloads['jobStatus']> = {}): Emit {
  return { event: 'jobStatus', value: jobStatusOf(job, extra.state ?? 'Processing', { stage, ...extra }) };
}

/**
 * The end of a PDF's page forgotten while it was in the pipeline: the page is never written, and the job counts it
 * done (its id stays among the job's memories, as one deleted since), or the job would wait for it forever.
 */
export function pageOfForgottenDocument(job: { jobId: string; tenantId: string; endUserId: string }, page: { memoryId: string; partIndex: number }, stage: string): Emit {
  return { event: 'jobStatus', value: jobStatusOf(job, 'Completed', { stage, ...page }) };
}

/**
 * The end of an update (PATCH) whose memory was forgotten while the update was in the pipeline: the delete wins,
 * the update is never written, and its job fails saying why. Failed is final, so reporting it twice changes nothing.
 */
export function updateOfForgottenMemory(job: { jobId: string; tenantId: string; endUserId: string }, stage: string): Emit {
  return {
    event: 'jobStatus',
    value: jobStatusOf(job, 'Failed', { stage, errorCode: 'MEMORY.FORGOTTEN', reason: 'the memory was deleted while this update was in the pipeline: the delete wins and the update is not applied' }),
  };
}

/**
 * How a job ends when what a stage holds of it was forgotten: an update of a forgotten memory fails, a PDF's
 * forgotten page counts done; `id` names the end, so it is reported once. Null for anything else, which ends through
 * its forgetting (the job's key is destroyed with it). For the runner (a record or an output that no longer opens)
 * and for a stage that takes back what it wrote.
 */
export function endOfForgotten(value: unknown, stage: string): { id: string; emit: Emit } | null {
  const job = jobOf(value);
  if (!job) return null;
  if (isUpdateJob(job.jobId)) return { id: job.jobId, emit: updateOfForgottenMemory(job, stage) };
  const { memoryId, partIndex } = value as { memoryId?: unknown; partIndex?: unknown };
  if (!isDocumentJob(job.jobId) || typeof memoryId !== 'string' || typeof partIndex !== 'number' || jobIdOfMemory(memoryId) !== job.jobId) return null;
  return { id: memoryId, emit: pageOfForgottenDocument(job, { memoryId, partIndex }, stage) };
}

/** The job a record's value names, when it names one. */
export function jobOf(value: unknown): { jobId: string; tenantId: string; endUserId: string } | null {
  const v = value as Partial<Record<'jobId' | 'tenantId' | 'endUserId', unknown>>;
  return typeof v.jobId === 'string' && typeof v.tenantId === 'string' && typeof v.endUserId === 'string' ? { jobId: v.jobId, tenantId: v.tenantId, endUserId: v.endUserId } : null;
}
