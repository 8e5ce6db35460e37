/**
 * kafkajs 2.2.4 keeps every broker connection's request queue awake on a 1 ms timer for the life of the process,
 * whether or not anything waits in it (kafkajs issues 1556 and 1704, unfixed: the project is no longer
 * maintained). Its scheduleCheckPendingRequests arms a timer even when no request is pending, with a negative
 * delay, and the check it runs arms the next: an idle process of ours woke its event loop ~1,700 times a second
 * and spent ~30 ms of CPU a second doing it, in each of the four processes that talk to Kafka.
 *
 * A check is only needed while requests are pending: push() asks for one when it queues a request, and a response
 * or a timeout runs the check itself. So the queue's method is replaced by one that arms no timer when nothing
 * is pending, and otherwise does what kafkajs does: wait out a client-side throttle, or look again in 10 ms.
 */
import { createRequire } from 'node:module';
import { MemoryServiceError } from '@memory/platform';

/** The fields of kafkajs's RequestQueue the check reads (src/network/requestQueue/index.js). */
interface RequestQueue {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: ReturnType<typeof setTimeout> | null;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
}

/** kafkajs's own interval for a queue that is full rather than throttled. */
const CHECK_PENDING_REQUESTS_MS = 10;

function scheduleCheckPendingRequests(this: RequestQueue): void {
  if (this.throttleCheckTimeoutId || this.pending.length === 0) return;
  const throttledForMs = this.throttledUntil - Date.now();
  this.throttleCheckTimeoutId = setTimeout(() => {
    this.throttleCheckTimeoutId = null;
    this.checkPendingRequests();
  }, throttledForMs > 0 ? throttledForMs : CHECK_PENDING_REQUESTS_MS);
}

/**
 * Replaces the method on kafkajs's RequestQueue (the module every kafkajs client in the process shares); idempotent.
 * Fails at start when the installed kafkajs has no such queue, as raw-cluster does for the internals it reaches.
 */
export function quietIdleRequestQueues(): void {
  let queue: { prototype: Partial<RequestQueue> } | undefined;
  try {
    queue = createRequire(import.meta.url)('kafkajs/src/network/requestQueue/index.js') as { prototype: Partial<RequestQueue> };
  } catch {
    queue = undefined;
  }
  if (typeof queue?.prototype?.scheduleCheckPendingRequests !== 'function' || typeof queue.prototype.checkPendingRequests !== 'function') {
    throw new MemoryServiceError('EVENTLOG.UNSUPPORTED_CLIENT', 'this kafkajs has no request queue where 2.2.x has it; the Kafka event log is written against kafkajs 2.2.x');
  }
  queue.prototype.scheduleCheckPendingRequests = scheduleCheckPendingRequests;
}
