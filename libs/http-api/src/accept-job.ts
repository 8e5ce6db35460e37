import { EVENTS, jobHeaders, jobStatusOf, userKey, type AvroCodec, type EventPayloads } from '@memory/contracts';
import type { EventLog, JobStore, Keyring } from '@memory/ports';
import { clientGone, currentRequestId, errorCode, RequestError, retry, timeStep, withTimeout, type Logger } from '@memory/platform';
import { applyJobStatus } from '@memory/stage-job-tracker';

export interface AcceptJobDeps {
  log: EventLog;
  codec: AvroCodec;
  jobs: JobStore;
  /**
   * Whether an erasure overtook an ingest while it was being accepted (read from the store, not the cache); after the
   * answer, whether anything forgot its job (an erasure, or a DELETE naming the job the 202 gave).
   */
  keys: Pick<Keyring, 'isErased' | 'forgotten'>;
  logger: Logger;
  /** Told of every accepted job, for the per-tenant in-flight bound (admission.ts). */
  inFlight?: { accepted(tenantId: string, jobId: string): void };
}

type JobEvent = 'ingestRequested' | 'forgetRequested';

/** How long the answer waits for the Accepted job record, which the job tracker writes from the log anyway. */
export const JOB_RECORD_WAIT_MS = 2_000;

/**
 * How every job is accepted: its event appended durably, and only then acknowledged. The job record is written
 * Accepted at once so GET /v1/jobs finds it; the job tracker would create it from the log anyway. The request's id
 * goes into the record's headers, which every stage copies onward, and onto the job record.
 */
export async function acceptJob<N extends JobEvent>(deps: AcceptJobDeps, name: N, event: EventPayloads[N] & { acceptedAt: number }) {
  // Each part is a step of the accept's Server-Timing (text-ingest-fast-path.ts): sealing and encoding, the durable append, the job record.
  const value = await timeStep('encode', () => deps.codec.encode(name, event)).catch((error: unknown) => {
    // An erasure (of the end user, or of the memory an update names) was accepted after this job's id was issued,
    // and won: nothing of it is kept.
    if (errorCode(error) === 'KEY.FORGOTTEN') throw endUserErased(event.jobId);
    throw error;
  });
  const requestId = currentRequestId();
  // A client that gave up waiting (an engine answering slowly as it starts can hold the steps before this one for
  // long) believes its memory refused and sends it again: appending it now would store what nobody was told of.
  // A late erasure is still wanted, so forgetting is appended whenever it gets here.
  if (name === 'ingestRequested' && clientGone()) {
    throw new RequestError(400, ABORTED, 'the client closed the connection before the memory was accepted; nothing was accepted');
  }
  await timeStep('produce', () => deps.log.append(EVENTS[name].topic, [{ key: userKey(event.tenantId, event.endUserId), value, headers: jobHeaders(event, requestId) }]));
  deps.inFlight?.accepted(event.tenantId, event.jobId);
  const status = jobStatusOf(event, 'Accepted', { stage: 'edge' });
  const record = deps.jobs.update(event.tenantId, event.jobId, (current) => applyJobStatus(current, status, event.acceptedAt, requestId), { likelyNew: true });
  const recorded = await timeStep('job-record', () => withTimeout(record, JOB_RECORD_WAIT_MS, 'the Accepted job record')).then(
    () => true,
    (error: unknown) => {
      // The event is durable; the job tracker will still record the job. Not a reason to fail the request.
      deps.logger.warn('could not record accepted job', { jobId: event.jobId, error: String(error) });
      return false;
    },
  );
  // A forget job is kept whatever happened meanwhile: it is what carries the forgetting out.
  if (name === 'ingestRequested') {
    const erased = recorded ? await erasedMeanwhile(deps, event) : null;
    if (erased === true) {
      await deps.jobs.forget(event.tenantId, [event.jobId]).catch((error: unknown) => {
        deps.logger.warn('could not remove the record of a job erased while it was accepted', { jobId: event.jobId, error: String(error) });
      });
      throw endUserErased(event.jobId);
    }
    if (erased === null) checkErasureLater(deps, event, record);
  }
  return { status: 'Accepted' as const, jobId: event.jobId };
}

/**
 * Whether an erasure of the job's end user (or tenant) overtook it after its key was claimed: its event, sealed with a
 * key the keyring still held, is then dropped by the pipeline as forgotten, and nothing would ever end or remove the
 * Accepted record just written. Read after that record is written, this closes the race: an erasure this realtime
 * read does not see yet is recorded after the record was written, so the forgetter's later jobs.erase (which
 * refreshes first) finds the record and removes it. Only erasures are read: nothing else can forget a job before its
 * 202 names it. Null when the store cannot answer: the job is accepted and checked later (checkErasureLater).
 */
async function erasedMeanwhile(deps: AcceptJobDeps, event: { tenantId: string; endUserId: string; jobId: string }): Promise<boolean | null> {
  return timeStep('erasure-check', () => deps.keys.isErased({ tenantId: event.tenantId, endUserId: event.endUserId }, event.jobId)).catch((error: unknown) => {
    deps.logger.warn('could not check whether an erasure overtook an accepted job; checking again after answering', { jobId: event.jobId, error: String(error) });
    return null;
  });
}

/**
 * The erasure check of an ingest that was answered before it could be made (its Accepted record still being written
 * after JOB_RECORD_WAIT_MS, or the key store not answering): made once the record's write has settled, failed or not
 * (a write whose answer was lost may have landed; forgetting a record that is not there is harmless), retried for
 * about a minute, so a forget that overtook the record does not leave it Accepted for good. By then the client may
 * have deleted the job the 202 named, so the job's tombstone is read too, not only the erasures. The client was
 * told Accepted; the forget covers the job, so the record goes as the forgetter's own would have removed it.
 */
function checkErasureLater(deps: AcceptJobDeps, event: { tenantId: string; endUserId: string; jobId: string }, record: Promise<unknown>): void {
  const scope = { tenantId: event.tenantId, endUserId: event.endUserId };
  const check = async () => {
    const forgotten = await retry(() => deps.keys.forgotten(scope, [event.jobId]), LATE_CHECK_RETRY);
    if (forgotten.size > 0) await retry(() => deps.jobs.forget(event.tenantId, [event.jobId]), LATE_CHECK_RETRY);
  };
  record
    .then(check, check)
    .catch((error: unknown) => deps.logger.warn('could not check, after answering, whether an erasure overtook an accepted job; its record may stay Accepted', { jobId: event.jobId, error: String(error) }));
}

/** About a minute of jittered backoff: an engine that does not answer the accept's own check is usually briefly away. */
const LATE_CHECK_RETRY = { retries: 8, initialDelayMs: 500, maxDelayMs: 15_000 };

/** The code of a job whose subject was forgotten while it was being accepted. */
export const END_USER_ERASED = 'REQUEST.END_USER_ERASED';
const ABORTED = 'REQUEST.ABORTED';

/** Whether acceptJob failed before appending anything: what the request stored for the job is nobody's now. */
export function acceptedNothing(error: unknown): boolean {
  const code = errorCode(error);
  return code === END_USER_ERASED || code === ABORTED;
}

export function endUserErased(jobId: string): RequestError {
  return new RequestError(409, END_USER_ERASED, `the end user was erased while this request was being accepted (as ${jobId}); nothing of it was kept: send it again to keep it after the erasure`);
}
