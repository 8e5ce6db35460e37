import { AvroCodec, EVENTS, userKey, type EventName } from '@memory/contracts';
import type { Consumer, EventLog, LogRecord, OutgoingRecord } from '@memory/ports';
import { errorCode, errorMessage, isRetriable, retry, RetriesExhaustedError, type Logger, type RetryOptions } from '@memory/platform';
import type { Emit, Incoming, StageSpec } from './stage.js';

const TOPIC_TO_EVENT = new Map<string, EventName>(Object.entries(EVENTS).map(([name, e]) => [e.topic, name as EventName]));

export interface RunnerDeps {
  log: EventLog;
  codec: AvroCodec;
  logger: Logger;
  retry?: Partial<RetryOptions>;
  maxBatchSize?: number;
}

/**
 * Runs one stage as a consumer group: decode the batch, process it, append every output durably, and only then
 * let the log commit the offsets. A batch that keeps failing is split: records are retried one by one, and one
 * that still fails is dead-lettered with its error and its job is marked Failed, so one poison event never stalls
 * a user's partition and every accepted job ends Completed or Failed.
 */
export async function runStage<In extends EventName, Deps>(stage: StageSpec<In, Deps>, stageDeps: Deps, deps: RunnerDeps): Promise<Consumer> {
  const logger = deps.logger.child({ stage: stage.name });
  const topics = stage.inputs.map((name) => EVENTS[name].topic);

  const publish = async (emits: Emit[]) => {
    const byTopic = new Map<string, OutgoingRecord[]>();
    for (const emit of emits) {
      const topic = EVENTS[emit.event].topic;
      const value = await deps.codec.encode(emit.event, emit.value as never);
      const key = 'tenantId' in emit.value && 'endUserId' in emit.value ? userKey(emit.value.tenantId, emit.value.endUserId) : (emit.value as { key: string }).key;
      const list = byTopic.get(topic) ?? [];
      list.push({ key, value });
      byTopic.set(topic, list);
    }
    await Promise.all([...byTopic].map(([topic, records]) => deps.log.append(topic, records)));
  };

  const deadLetter = async (record: LogRecord, error: unknown, attempts: number, decoded?: Incoming<In>) => {
    const cause = error instanceof RetriesExhaustedError ? error.cause : error;
    const job = decoded ? jobOf(decoded.value) : null;
    logger.error('dead-lettering record', { topic: record.topic, partition: record.partition, offset: record.offset, code: errorCode(cause), error: errorMessage(cause) });
    const emits: Emit[] = [{
      event: 'deadLetter',
      value: { stage: stage.name, topic: record.topic, partition: record.partition, offset: record.offset, key: record.key, value: record.value, jobId: job?.jobId ?? null, errorCode: errorCode(cause), errorMessage: errorMessage(cause), attempts },
    }];
    if (job) {
      emits.push({ event: 'jobStatus', value: { ...job, state: 'Failed', stage: stage.name, partIndex: null, partCount: null, memoryId: null, errorCode: errorCode(cause), reason: `${stage.name} failed: ${errorMessage(cause)}` } });
    }
    await publish(emits);
  };

  const decode = async (record: LogRecord): Promise<Incoming<In>> => {
    const event = TOPIC_TO_EVENT.get(record.topic) as In;
    const value = await deps.codec.decode(event, record.value);
    return { event, value, topic: record.topic, partition: record.partition, offset: record.offset, key: record.key, timestamp: record.timestamp } as Incoming<In>;
  };

  const processAndPublish = async (batch: Array<Incoming<In>>) => {
    const outputs = await stage.process(batch, stageDeps);
    await publish(outputs.flat());
  };

  const retryOptions = (attempts: { count: number }): Partial<RetryOptions> => ({
    ...deps.retry,
    onRetry: (error, attempt, delayMs) => {
      attempts.count = attempt + 1;
      logger.warn('stage batch failed, retrying', { attempt, delayMs, code: errorCode(error), error: errorMessage(error) });
    },
  });

  const handler = async (records: LogRecord[]) => {
    const decoded: Array<Incoming<In> | null> = [];
    for (const record of records) {
      try {
        decoded.push(await decode(record));
      } catch (error) {
        if (isRetriable(error) && !(error as { code?: string }).code?.startsWith('CONTRACT.')) throw error; // registry unreachable: redeliver later
        await deadLetter(record, error, 1);
        decoded.push(null);
      }
    }
    const good = decoded.filter((d): d is Incoming<In> => d !== null);
    if (good.length === 0) return;
    const attempts = { count: 1 };
    try {
      await retry(() => processAndPublish(good), retryOptions(attempts));
    } catch (batchError) {
      if (good.length === 1) {
        await deadLetter(records[decoded.indexOf(good[0]!)]!, batchError, attempts.count, good[0]);
        return;
      }
      logger.warn('batch keeps failing, isolating records', { size: good.length, error: errorMessage(batchError) });
      for (const item of good) {
        const one = { count: 1 };
        try {
          await retry(() => processAndPublish([item]), retryOptions(one));
        } catch (error) {
          await deadLetter(records[decoded.indexOf(item)]!, error, one.count, item);
        }
      }
    }
  };

  const consumer = await deps.log.consume({ group: stage.group, topics, handler, startFrom: { kind: 'earliest' }, ...(deps.maxBatchSize ? { maxBatchSize: deps.maxBatchSize } : {}) });
  logger.info('stage running', { group: stage.group, topics });
  return consumer;
}

function jobOf(value: unknown): { jobId: string; tenantId: string; endUserId: string } | null {
  const v = value as Partial<Record<'jobId' | 'tenantId' | 'endUserId', unknown>>;
  return typeof v.jobId === 'string' && typeof v.tenantId === 'string' && typeof v.endUserId === 'string' ? { jobId: v.jobId, tenantId: v.tenantId, endUserId: v.endUserId } : null;
}
