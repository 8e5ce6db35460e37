import { AvroCodec, EVENTS, isJobIdOf, JOB_ID_HEADER, jobHeaders, jobStatusOf, ownerOfUserKey, REQUEST_ID_RECORD_HEADER, userKey, type EventName } from '@memory/contracts';
import type { Consumer, EventLog, LogRecord, OutgoingRecord, Scope } from '@memory/ports';
import { errorCode, errorMessage, isEngineOutage, isRequestId, MemoryServiceError, retry, RetriesExhaustedError, withRequestId, type Logger, type RetryOptions } from '@memory/platform';
import { deadLetters, stageDuration, stageRecords, timed } from '@memory/metrics';
import { KeyOrder } from './key-order.js';
import { endOfForgotten, FailedAfter, jobOf, type Emit, type ForgottenRecord, type Incoming, type StageSpec } from './stage.js';

const TOPIC_TO_EVENT = new Map<string, EventName>(Object.entries(EVENTS).map(([name, e]) => [e.topic, name as EventName]));

export interface RunnerDeps {
  log: EventLog;
  codec: AvroCodec;
  logger: Logger;
  retry?: Partial<RetryOptions>;
  /** Records per call of a stage's process; a stage that computes only is handed SLICES_IN_FLIGHT of these at once. */
  maxBatchSize?: number;
  /** How long a projection sends a batch back while its store fails (PROJECTION_HOLD_MS by default). */
  projectionHoldMs?: number;
}

/**
 * How long a projection of the reports (job tracker, webhook dispatcher) sends a batch back while its store fails
 * retriably, before it takes the failure for the records' and isolates them: a store down longer than this loses
 * the ends of the jobs it held (loudly), and a record whose own failure looks retriable holds its partition no longer.
 */
export const PROJECTION_HOLD_MS = 15 * 60_000;

/**
 * Slices of a batch a compute-only stage has in flight. With one, the model thread idled while the enricher decoded,
 * enriched and published around each model call; with eight, one slice's enrichment and publishing overlap the
 * others' model calls, and the model waits only at the start of a batch, for its first slice to be enriched (README,
 * Performance).
 */
export const SLICES_IN_FLIGHT = 8;

/**
 * Batches of one partition a stage whose end users are apart (endUsersApart, or computesOnly) has handed over at once
 * (the log's batchesInFlight). With one, a record of a quiet end user sharing a partition with a loud one waited for
 * the loud user's batch in flight to end before its own batch was even read; with more, its batch is handed over at
 * once and goes to the stage while the loud batch is still being enriched or written (each key keeping its order,
 * see KeyOrder). Many, because a batch read while others are in flight holds only what arrived since the last read,
 * often one record.
 */
export const BATCHES_IN_FLIGHT = 16;

/** An output to append, with the request id of the input it came from (copied into its record's headers). */
interface Outgoing {
  emit: Emit;
  requestId: string | undefined;
}

/**
 * Runs one stage as a consumer group: decode the batch, process it, append every output durably, and only then
 * let the log commit the offsets. A batch that keeps failing is split: records are retried one by one, and one
 * that still fails is dead-lettered with its error and its job is marked Failed, so one poison event never stalls
 * a user's partition and every accepted job ends Completed or Failed. An engine outage is not a poison event: its
 * batch is delivered again until the engine is back (isEngineOutage). Only a stage that reports jobs' progress
 * (jobStatus among its outputs) fails them: a projection of the reports (the job tracker, the webhook dispatcher)
 * failing says nothing of the job, and the job tracker would read its own Failed report and fail again, forever.
 * So a projection dead-letters at once only a record that can never be projected; a failure that may heal (its
 * store's, retriable) sends the batch back like an outage for up to PROJECTION_HOLD_MS, since a dead-lettered report
 * would lose its job's end for good.
 *
 * Every stage is measured here, not in its own code: records processed and failed, the time per batch, the dead
 * letters; and each output carries the request id of its input, so a job's log lines share one id in every stage.
 */
export async function runStage<In extends EventName, Deps>(stage: StageSpec<In, Deps>, stageDeps: Deps, deps: RunnerDeps): Promise<Consumer> {
  const logger = deps.logger.child({ stage: stage.name });
  // Every series of a running stage exists from its start, at 0, so a rate() over it is defined before a failure.
  for (const outcome of ['processed', 'failed']) stageRecords.inc({ stage: stage.name, outcome }, 0);
  deadLetters.inc({ stage: stage.name }, 0);
  const topics = stage.inputs.map((name) => EVENTS[name].topic);

  const reportsJobs = stage.outputs.includes('jobStatus');
  const projectionHoldMs = deps.projectionHoldMs ?? PROJECTION_HOLD_MS;
  /** When a projection's batch, by its first unpublished record, first failed in a way its store may heal. */
  const heldSince = new Map<string, number>();
  const positionOf = (item: Incoming<In>) => `${item.topic}/${item.partition}/${item.offset}`;
  /**
   * Whether a failure that outlasted the retries sends the batch back to the log rather than to the dead letters: an
   * engine outage; for a projection, also a store's failure that may heal (a retriable MemoryServiceError, which the
   * adapters make of what an engine answers), for PROJECTION_HOLD_MS. An unexpected error (a bug) still
   * dead-letters: it would fail the same way on every delivery.
   */
  const sendsBack = (error: unknown, first: Incoming<In>) => {
    const cause = error instanceof RetriesExhaustedError ? error.cause : error;
    if (isEngineOutage(cause)) return true;
    if (reportsJobs || !(cause instanceof MemoryServiceError && cause.retriable)) return false;
    const since = heldSince.get(positionOf(first)) ?? Date.now();
    heldSince.set(positionOf(first), since);
    if (Date.now() - since < projectionHoldMs) return true;
    heldSince.delete(positionOf(first));
    logger.error('projection gave up sending a batch back after its store kept failing; isolating its records', { heldForMs: Date.now() - since, code: errorCode(cause), error: errorMessage(cause) });
    return false;
  };
  const publish = async (outgoing: Outgoing[]) => {
    const byTopic = new Map<string, OutgoingRecord[]>();
    const queue = [...outgoing];
    const ended = new Set<string>();
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const { emit, requestId } = next;
      const topic = EVENTS[emit.event].topic;
      let value: Buffer;
      try {
        value = await deps.codec.encode(emit.event, emit.value as never);
      } catch (error) {
        if (!isForgotten(error)) throw error;
        // Forgotten while this stage held it: it is written nowhere, which is what forgetting asks. An update of
        // that memory ends here, Failed, and a PDF's page counts done, or their jobs would wait forever for the
        // output just dropped.
        const end = reportsJobs ? endOfForgotten(emit.value, stage.name) : null;
        if (end && !ended.has(end.id)) {
          ended.add(end.id);
          queue.push({ emit: end.emit, requestId });
        }
        continue;
      }
      const key = 'tenantId' in emit.value && 'endUserId' in emit.value ? userKey(emit.value.tenantId, emit.value.endUserId) : (emit.value as { key: string }).key;
      const list = byTopic.get(topic) ?? [];
      list.push({ key, value, headers: jobHeaders(emit.value, requestId) });
      byTopic.set(topic, list);
    }
    await Promise.all([...byTopic].map(([topic, records]) => deps.log.append(topic, records)));
  };

  const deadLetter = async (record: LogRecord, error: unknown, attempts: number, decoded?: Incoming<In>) => {
    const cause = error instanceof RetriesExhaustedError ? error.cause : error;
    // A record that could not be decoded still names its job and end user in clear (its headers and key).
    const job = decoded ? jobOf(decoded.value) : jobInClear(record);
    const requestId = requestIdOf(record);
    logger.error('dead-lettering record', { topic: record.topic, partition: record.partition, offset: record.offset, jobId: job?.jobId ?? record.headers[JOB_ID_HEADER], requestId, code: errorCode(cause), error: errorMessage(cause) });
    stageRecords.inc({ stage: stage.name, outcome: 'failed' });
    deadLetters.inc({ stage: stage.name });
    const emits: Emit[] = [{
      event: 'deadLetter',
      value: { stage: stage.name, topic: record.topic, partition: record.partition, offset: record.offset, key: record.key, value: record.value, jobId: job?.jobId ?? null, errorCode: errorCode(cause), errorMessage: errorMessage(cause), attempts },
    }];
    if (job && reportsJobs) {
      emits.push({ event: 'jobStatus', value: jobStatusOf(job, 'Failed', { stage: stage.name, errorCode: errorCode(cause), reason: `${stage.name} failed: ${errorMessage(cause)}` }) });
    }
    await publish(emits.map((emit) => ({ emit, requestId })));
  };

  const decode = async (record: LogRecord): Promise<Incoming<In>> => {
    const event = TOPIC_TO_EVENT.get(record.topic) as In;
    const value = await deps.codec.decode(event, record.value);
    const requestId = requestIdOf(record);
    return { event, value, topic: record.topic, partition: record.partition, offset: record.offset, key: record.key, timestamp: record.timestamp, ...(requestId ? { requestId } : {}) } as Incoming<In>;
  };

  const sliceSize = deps.maxBatchSize ?? Number.POSITIVE_INFINITY;
  /**
   * Processes what is left of a batch and publishes it in order. A compute-only stage's slices are all started at
   * once; `done` counts the records whose outputs are appended, so a retry does not publish them a second time.
   */
  const processAndPublish = async (batch: Array<Incoming<In>>, done: { published: number }) => {
    const rest = batch.slice(done.published);
    const slices = stage.computesOnly ? chunk(rest, sliceSize) : [rest];
    const outputs = slices.map((slice) => stage.process(slice, stageDeps));
    // A failure is reported when its slice's turn comes; the slices after it are processed again on retry.
    for (const pending of outputs) pending.catch(() => undefined);
    // process returns the outputs of each input at its index: each output takes its input's request id.
    const publishDone = async (slice: Array<Incoming<In>>, emitted: Emit[][]) => {
      await publish(emitted.flatMap((emits, j) => emits.map((emit) => ({ emit, requestId: slice[j]?.requestId }))));
      done.published += emitted.length;
      stageRecords.inc({ stage: stage.name, outcome: 'processed' }, emitted.length);
      for (const item of slice.slice(0, emitted.length)) logger.debug('record processed', { topic: item.topic, partition: item.partition, offset: item.offset, jobId: jobOf(item.value)?.jobId, requestId: item.requestId });
    };
    for (let i = 0; i < slices.length; i++) {
      const slice = slices[i]!;
      let emitted: Emit[][];
      try {
        emitted = await outputs[i]!;
      } catch (error) {
        if (!(error instanceof FailedAfter)) throw error;
        // What the records before the failing one did is published now: a retry starts at the failing record.
        await publishDone(slice, error.outputs);
        throw error.cause;
      }
      await publishDone(slice, emitted);
    }
  };

  /** A retried batch's log line names its record when it is one (a record retried alone after its batch failed). */
  const retryOptions = (attempts: { count: number }, batch: Array<Incoming<In>>): Partial<RetryOptions> => ({
    ...deps.retry,
    onRetry: (error, attempt, delayMs) => {
      attempts.count = attempt + 1;
      const about = batch.length === 1 ? { jobId: jobOf(batch[0]!.value)?.jobId, requestId: batch[0]!.requestId } : { records: batch.length };
      logger.warn('stage batch failed, retrying', { attempt, delayMs, ...about, code: errorCode(error), error: errorMessage(error) });
    },
  });

  // Each key in log order across the batches in hand, the ready records of several batches handled together.
  const keyOrder = new KeyOrder((records) => timed(stageDuration, { stage: stage.name }, () => handleBatch(records)));

  // A batch runs outside any HTTP request's context, whichever call woke the consumer: its log lines name their own records' ids.
  const handler = (records: LogRecord[]) => withRequestId(undefined, () => keyOrder.handle(records));

  /** What the stage may have written of its forgotten records' subjects goes, one end user at a time (takeBackForgotten). */
  const takeBackForgotten = async (forgotten: ForgottenOf[]) => {
    if (!stage.takeBackForgotten) return;
    const byUser = new Map<string, { scope: Scope; records: ForgottenRecord[] }>();
    for (const { scope, record } of forgotten) {
      const user = userKey(scope.tenantId, scope.endUserId);
      byUser.set(user, { scope, records: [...(byUser.get(user)?.records ?? []), record] });
    }
    for (const { scope, records } of byUser.values()) await stage.takeBackForgotten(scope, records, stageDeps);
  };

  const handleBatch = async (records: LogRecord[]) => {
    const decoded: Array<Incoming<In> | null> = [];
    const forgotten: ForgottenOf[] = [];
    for (const record of records) {
      try {
        decoded.push(await decode(record));
      } catch (error) {
        if (isForgotten(error)) {
          // Its subject was forgotten: its data key is destroyed and there is nothing to process. An update of a
          // forgotten memory ends Failed and a PDF's forgotten page counts done, which only the record's clear
          // parts can say (the job id header, the forgotten key's id: see jobHeaders).
          decoded.push(null);
          const subject = forgottenOf(record, error);
          if (subject) forgotten.push(subject);
          const end = reportsJobs && subject ? endOfForgotten(forgottenSubject(subject), stage.name) : null;
          if (end) await publish([{ emit: end.emit, requestId: requestIdOf(record) }]);
          continue;
        }
        // An engine's passing failure (the registry or the key store unreachable): redeliver later. Anything else,
        // a plain Error of the Avro decoder on a truncated body included, would fail the same way every time.
        if (error instanceof MemoryServiceError && error.retriable && !error.code.startsWith('CONTRACT.')) throw error;
        await deadLetter(record, error, 1);
        decoded.push(null);
      }
    }
    // Before anything of the batch is committed: a failure here delivers the batch again.
    if (forgotten.length > 0) await takeBackForgotten(forgotten);
    const good = decoded.filter((d): d is Incoming<In> => d !== null);
    if (good.length === 0) return;
    const attempts = { count: 1 };
    const done = { published: 0 };
    try {
      await retry(() => processAndPublish(good, done), retryOptions(attempts, good));
      if (heldSince.size > 0) for (const item of good) heldSince.delete(positionOf(item));
    } catch (batchError) {
      // An engine outage outlasting the retries is no fault of these records: dead-lettering them would fail every
      // job in flight. The batch goes back to the log uncommitted and comes again, with backoff, until the engine
      // answers; what was already published is written again as the same upserts.
      if (sendsBack(batchError, good[done.published]!)) throw batchError;
      const failing = good.slice(done.published);
      if (failing.length === 1) {
        await deadLetter(records[decoded.indexOf(failing[0]!)]!, batchError, attempts.count, failing[0]);
        return;
      }
      logger.warn('batch keeps failing, isolating records', { size: failing.length, error: errorMessage(batchError) });
      for (const item of failing) {
        const one = { count: 1 };
        try {
          await retry(() => processAndPublish([item], { published: 0 }), retryOptions(one, [item]));
        } catch (error) {
          if (isEngineOutage(error)) throw error;
          await deadLetter(records[decoded.indexOf(item)]!, error, one.count, item);
        }
      }
    }
  };

  const maxBatchSize = deps.maxBatchSize && (stage.computesOnly ? deps.maxBatchSize * SLICES_IN_FLIGHT : deps.maxBatchSize);
  // Any other stage keeps one batch at a time, so its writes of one batch never race those of the next.
  const batchesInFlight = stage.computesOnly || stage.endUsersApart ? BATCHES_IN_FLIGHT : 1;
  const consumer = await deps.log.consume({ group: stage.group, topics, handler, startFrom: { kind: 'earliest' }, batchesInFlight, ...(maxBatchSize ? { maxBatchSize } : {}) });
  logger.info('stage running', { group: stage.group, topics });
  return consumer;
}

const isForgotten = (error: unknown) => errorCode(error) === 'KEY.FORGOTTEN';

function requestIdOf(record: LogRecord): string | undefined {
  const id = record.headers[REQUEST_ID_RECORD_HEADER];
  return isRequestId(id) ? id : undefined;
}

/** A record sealed with a forgotten key, as its clear parts name it: its subject's end user, the key's id, its job. */
interface ForgottenOf {
  scope: Scope;
  record: ForgottenRecord;
}

/** The clear parts of an undecodable record: the KEY.FORGOTTEN error's subject (see keyForgotten) and the job-id header. */
function forgottenOf(record: LogRecord, error: unknown): ForgottenOf | null {
  const { tenantId, endUserId, keyId } = (error as { details?: { tenantId?: unknown; endUserId?: unknown; keyId?: unknown } }).details ?? {};
  if (typeof tenantId !== 'string' || typeof endUserId !== 'string' || typeof keyId !== 'string') return null;
  return { scope: { tenantId, endUserId }, record: { keyId, jobId: record.headers[JOB_ID_HEADER] ?? null } };
}

/** What endOfForgotten reads of a forgotten record: its job and end user, and for a PDF's page (the key's id is its memory id) the page. */
function forgottenSubject({ scope, record }: ForgottenOf): { jobId?: string; tenantId: string; endUserId: string; memoryId?: string; partIndex?: number } {
  const partIndex = /_(\d+)$/.exec(record.keyId)?.[1];
  return {
    ...(record.jobId === null ? {} : { jobId: record.jobId }),
    ...scope,
    ...(partIndex === undefined ? {} : { memoryId: record.keyId, partIndex: Number(partIndex) }),
  };
}

function chunk<T>(items: T[], size: number): T[][] {
  if (items.length <= size) return [items];
  const slices: T[][] = [];
  for (let start = 0; start < items.length; start += size) slices.push(items.slice(start, start + size));
  return slices;
}

/** The job of a record from its clear parts: the job-id header, and the tenant and end user of its key (userKey). */
function jobInClear(record: LogRecord): { jobId: string; tenantId: string; endUserId: string } | null {
  const jobId = record.headers[JOB_ID_HEADER];
  const owner = ownerOfUserKey(record.key);
  return jobId !== undefined && owner !== null && isJobIdOf(jobId, owner.endUserId) ? { jobId, ...owner } : null;
}

