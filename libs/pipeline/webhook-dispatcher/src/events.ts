import { createHash } from 'node:crypto';
import { isUpdateJob } from '@memory/contracts';
import type { JobRecord, WebhookEventType } from '@memory/ports';

/** What a webhook body says: ids and states, never memory content. */
export interface WebhookEventData {
  jobId: string;
  status: 'Completed' | 'Failed';
  endUserId: string;
  memoryIds: string[];
  error?: { code: string | null; reason: string | null };
  /** memory.deleted of a whole job's memories: that job. */
  targetJobId?: string;
}

export interface WebhookEvent {
  type: WebhookEventType;
  data: WebhookEventData;
}

/**
 * The events a job announces once it has ended: job.completed or job.failed for every kind of job, and for a
 * completed update or forgetting job what it did to memories. A forgetting job whose request the projection has
 * not seen yet announces only job.completed for now; the rest follows when the request arrives.
 */
export function eventsOfJob(job: JobRecord): WebhookEvent[] {
  if (job.state !== 'Completed' && job.state !== 'Failed') return [];
  const data: WebhookEventData = { jobId: job.jobId, status: job.state, endUserId: job.endUserId, memoryIds: job.memoryIds.filter(Boolean) };
  if (job.state === 'Failed') return [{ type: 'job.failed', data: { ...data, error: { code: job.errorCode, reason: job.reason } } }];
  const events: WebhookEvent[] = [{ type: 'job.completed', data }];
  if (isUpdateJob(job.jobId)) events.push({ type: 'memory.updated', data });
  const forget = job.forget;
  if (forget?.target === 'user') events.push({ type: 'user.erased', data });
  if (forget?.target === 'memory') events.push({ type: 'memory.deleted', data: { ...data, memoryIds: forget.memoryId ? [forget.memoryId] : [] } });
  if (forget?.target === 'job') events.push({ type: 'memory.deleted', data: { ...data, ...(forget.targetJobId ? { targetJobId: forget.targetJobId } : {}) } });
  return events;
}

/** The body as sent: `{"type","timestamp","data"}`, the timestamp the job's last log time (ISO 8601). */
export function webhookBody(event: WebhookEvent, at: number): string {
  return JSON.stringify({ type: event.type, timestamp: new Date(at).toISOString(), data: event.data });
}

/** A delivery's id (the `webhook-id`), derived from endpoint, job and event so that a replay enqueues it once. */
export function deliveryIdOf(webhookId: string, jobId: string, type: WebhookEventType): string {
  return `msg_${createHash('sha256').update(`${webhookId}\n${jobId}\n${type}`).digest('base64url').slice(0, 27)}`;
}
