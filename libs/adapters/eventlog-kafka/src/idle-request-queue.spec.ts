import { expect } from 'chai';
import { createRequire } from 'node:module';
import { quietIdleRequestQueues } from './idle-request-queue.js';

const require = createRequire(import.meta.url);
const QUEUE_MODULE = require.resolve('kafkajs/src/network/requestQueue/index.js');

interface Queue {
  pending: Array<{ send(): void; expectResponse: boolean; correlationId: number }>;
  throttledUntil: number;
  throttleCheckTimeoutId: ReturnType<typeof setTimeout> | null;
  checkPendingRequests(): void;
  destroy(): void;
}
type QueueClass = new (options: Record<string, unknown>) => Queue;

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const queueOf = (RequestQueue: QueueClass) =>
  new RequestQueue({ maxInFlightRequests: null, requestTimeout: 30_000, enforceRequestTimeout: false, clientId: 'spec', broker: 'spec:9092', logger: silent });

/** kafkajs's RequestQueue as installed, loaded afresh: quietIdleRequestQueues patches the copy every client shares. */
function pristineRequestQueue(): QueueClass {
  const cached = require.cache[QUEUE_MODULE];
  delete require.cache[QUEUE_MODULE];
  try {
    return require(QUEUE_MODULE) as QueueClass;
  } finally {
    if (cached) require.cache[QUEUE_MODULE] = cached;
  }
}

describe('quietIdleRequestQueues', () => {
  it("is needed: the installed kafkajs's queue arms a timer after a check with nothing pending, and the timer the next", async () => {
    const queue = queueOf(pristineRequestQueue());
    try {
      queue.checkPendingRequests();
      expect(queue.throttleCheckTimeoutId, 'a timer with nothing pending').to.not.equal(null);
      const first = queue.throttleCheckTimeoutId;
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(queue.throttleCheckTimeoutId, 'armed again after it fired').to.not.equal(null).and.to.not.equal(first);
    } finally {
      queue.destroy();
    }
  });

  it('arms no timer while nothing is pending, and still sends a request held back by a throttle once it ends', async () => {
    quietIdleRequestQueues();
    quietIdleRequestQueues();
    const queue = queueOf(require(QUEUE_MODULE) as QueueClass);
    try {
      queue.checkPendingRequests();
      expect(queue.throttleCheckTimeoutId).to.equal(null);

      let sentAt: number | null = null;
      queue.throttledUntil = Date.now() + 30;
      queue.pending.push({ send: () => (sentAt = Date.now()), expectResponse: true, correlationId: 1 });
      queue.checkPendingRequests();
      expect(sentAt, 'not while throttled').to.equal(null);
      expect(queue.throttleCheckTimeoutId, 'a check at the throttle\'s end').to.not.equal(null);
      await new Promise((resolve) => setTimeout(resolve, 80));
      expect(sentAt, 'sent once the throttle ended').to.be.a('number');
      expect(queue.pending).to.have.length(0);
      expect(queue.throttleCheckTimeoutId, 'and nothing armed after').to.equal(null);
    } finally {
      queue.destroy();
    }
  });
});
