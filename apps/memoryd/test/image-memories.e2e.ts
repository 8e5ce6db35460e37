import { expect } from 'chai';
import { describeImageScenarios, drawReceipt, underTest } from '@memory/testing';
import { caller, KEYS, memorydProcess } from './harness.js';

describeImageScenarios('image memories (embedded default)', underTest(memorydProcess()));

describe('image memories behind a proxy (MEMORY_PUBLIC_URL)', () => {
  const service = memorydProcess({ MEMORY_PUBLIC_URL: 'https://memory.example.com/api/' });
  before(() => service.start());
  after(async () => {
    await service.stop();
    service.cleanup();
  });

  it('answers a previewUrl at the public address rather than the one the request reached', async () => {
    const ack = await caller(service, KEYS.acme, 'frank').post('/v1/memory/image', { imageData: (await drawReceipt()).toString('base64') });
    expect(ack.status, JSON.stringify(ack.body)).to.equal(202);
    expect(ack.body.previewUrl).to.equal(`https://memory.example.com/api/v1/memory/image/${ack.body.jobId}/preview`);
  });
});
