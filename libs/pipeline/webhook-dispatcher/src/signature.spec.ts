import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { newWebhookSecret, secretKey, signWebhook, webhookHeaders } from './signature.js';

describe('webhook signatures (Standard Webhooks)', () => {
  it('reproduces the test vector published with the Standard Webhooks reference libraries', () => {
    expect(signWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).to.equal(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  it('makes secrets of whsec_ and 24 random bytes, each one different', () => {
    const secret = newWebhookSecret();
    expect(secret).to.match(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(secretKey(secret)).to.have.length(24);
    expect(newWebhookSecret()).to.not.equal(secret);
  });

  it('signs with every secret given, space-separated, during a rotation', () => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    const headers = webhookHeaders([current, previous], 'msg_1', 1_700_000_000, '{}');
    const expected = (secret: string) => `v1,${createHmac('sha256', secretKey(secret)).update('msg_1.1700000000.{}').digest('base64')}`;
    expect(headers).to.deep.equal({ 'webhook-id': 'msg_1', 'webhook-timestamp': '1700000000', 'webhook-signature': `${expected(current)} ${expected(previous)}` });
  });
});
