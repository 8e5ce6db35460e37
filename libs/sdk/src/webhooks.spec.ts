import { expect } from 'chai';
import { verifyWebhook, WebhookVerificationError, type VerifyWebhookInput } from './index.js';

// The example of the Standard Webhooks specification: an outside reference, not computed with this code.
const SPEC = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: '1614265330',
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};
const AT = Number(SPEC.timestamp) * 1000;

const input = (overrides: Partial<VerifyWebhookInput> = {}, signature = SPEC.signature): VerifyWebhookInput => ({
  secret: SPEC.secret,
  headers: { 'webhook-id': SPEC.id, 'webhook-timestamp': SPEC.timestamp, 'webhook-signature': signature },
  body: SPEC.body,
  nowMs: AT,
  ...overrides,
});

async function refusal(call: Promise<unknown>): Promise<string> {
  const error = await call.then(() => null, (caught: unknown) => caught);
  expect(error).to.be.instanceOf(WebhookVerificationError);
  return (error as WebhookVerificationError).code;
}

describe('verifyWebhook (Standard Webhooks, Web Crypto)', () => {
  it('accepts the specification\'s example and hands back the parsed body', async () => {
    expect(await verifyWebhook(input())).to.deep.equal({ test: 2432232314 });
  });

  it('reads fetch Headers, node:http headers in any case, and bytes as the body', async () => {
    const headers = new Headers({ 'Webhook-Id': SPEC.id, 'Webhook-Timestamp': SPEC.timestamp, 'Webhook-Signature': SPEC.signature });
    expect(await verifyWebhook(input({ headers, body: new TextEncoder().encode(SPEC.body) }))).to.deep.equal({ test: 2432232314 });
    expect(await verifyWebhook(input({ headers: { 'WEBHOOK-ID': SPEC.id, 'webhook-timestamp': SPEC.timestamp, 'webhook-signature': SPEC.signature } }))).to.deep.equal({ test: 2432232314 });
  });

  it('accepts any of several signatures in the header, and any of several secrets (a rotation)', async () => {
    const other = 'v1,' + btoa('x'.repeat(32));
    expect(await verifyWebhook(input({}, `v1a,whatever ${other} ${SPEC.signature}`))).to.deep.equal({ test: 2432232314 });
    expect(await verifyWebhook(input({ secret: ['whsec_' + btoa('another secret of 24 byte'), SPEC.secret] }))).to.deep.equal({ test: 2432232314 });
  });

  it('refuses a changed body, id or timestamp, a wrong secret, and a signature of another scheme', async () => {
    expect(await refusal(verifyWebhook(input({ body: '{"test": 2432232315}' })))).to.equal('WEBHOOK.INVALID_SIGNATURE');
    expect(await refusal(verifyWebhook(input({ headers: { 'webhook-id': 'msg_other', 'webhook-timestamp': SPEC.timestamp, 'webhook-signature': SPEC.signature } })))).to.equal('WEBHOOK.INVALID_SIGNATURE');
    expect(await refusal(verifyWebhook(input({ headers: { 'webhook-id': SPEC.id, 'webhook-timestamp': '1614265331', 'webhook-signature': SPEC.signature } })))).to.equal('WEBHOOK.INVALID_SIGNATURE');
    expect(await refusal(verifyWebhook(input({ secret: 'whsec_' + btoa('not the secret at all!!!') })))).to.equal('WEBHOOK.INVALID_SIGNATURE');
    expect(await refusal(verifyWebhook(input({}, SPEC.signature.replace('v1,', 'v2,'))))).to.equal('WEBHOOK.INVALID_SIGNATURE');
    expect(await refusal(verifyWebhook(input({}, 'v1,not base64!')))).to.equal('WEBHOOK.INVALID_SIGNATURE');
  });

  it('refuses a timestamp outside the tolerance either way, and a request without the headers', async () => {
    expect(await refusal(verifyWebhook(input({ nowMs: AT + 301_000 })))).to.equal('WEBHOOK.TIMESTAMP_OUT_OF_TOLERANCE');
    expect(await refusal(verifyWebhook(input({ nowMs: AT - 301_000 })))).to.equal('WEBHOOK.TIMESTAMP_OUT_OF_TOLERANCE');
    expect(await verifyWebhook(input({ nowMs: AT + 3_600_000, toleranceSeconds: 3_600 }))).to.deep.equal({ test: 2432232314 });
    expect(await refusal(verifyWebhook(input({ headers: { 'webhook-id': SPEC.id, 'webhook-timestamp': SPEC.timestamp } })))).to.equal('WEBHOOK.MISSING_HEADERS');
  });
});
