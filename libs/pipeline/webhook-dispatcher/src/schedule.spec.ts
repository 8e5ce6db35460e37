import { expect } from 'chai';
import type { WebhookDelivery } from '@memory/ports';
import { afterAttempt, DEFAULT_RETRY_SCHEDULE } from './schedule.js';

const T0 = 1_800_000_000_000;
const pending: WebhookDelivery = {
  id: 'msg_1', tenantId: 't', endUserId: 'u', webhookId: 'wh_1', eventType: 'job.completed', body: '{}', state: 'pending', attempts: 0,
  nextAttemptAt: T0, lastStatus: null, lastError: null, retryUntil: T0 + DEFAULT_RETRY_SCHEDULE.windowMs, createdAt: T0, updatedAt: T0,
};

describe('webhook retry schedule', () => {
  it('marks a 2xx delivered and anything else pending again after a jittered, doubling delay', () => {
    expect(afterAttempt(pending, { status: 204, error: null }, T0, DEFAULT_RETRY_SCHEDULE)).to.deep.include({ state: 'delivered', attempts: 1, nextAttemptAt: null, lastStatus: 204 });
    const retried = afterAttempt(pending, { status: 500, error: null }, T0, DEFAULT_RETRY_SCHEDULE, () => 1);
    expect(retried).to.deep.include({ state: 'pending', attempts: 1, lastStatus: 500, nextAttemptAt: T0 + 30_000 });
    const third = afterAttempt({ ...retried, attempts: 2 }, { status: null, error: 'ECONNREFUSED' }, T0, DEFAULT_RETRY_SCHEDULE, () => 1);
    expect(third).to.deep.include({ nextAttemptAt: T0 + 120_000, lastStatus: null, lastError: 'ECONNREFUSED' });
    expect(afterAttempt({ ...pending, attempts: 30 }, { status: 503, error: null }, T0, DEFAULT_RETRY_SCHEDULE, () => 1).nextAttemptAt).to.equal(T0 + 3_600_000);
  });

  it('keeps retrying for 24 hours, then marks the delivery failed', () => {
    let delivery = pending;
    let now = T0;
    while (delivery.state === 'pending') {
      delivery = afterAttempt(delivery, { status: 500, error: null }, now, DEFAULT_RETRY_SCHEDULE, () => 1);
      now = delivery.nextAttemptAt ?? now;
    }
    expect(delivery.state).to.equal('failed');
    expect(now - T0).to.be.within(23 * 3_600_000, 24 * 3_600_000);
    expect(delivery.attempts).to.be.within(25, 40);
  });
});
