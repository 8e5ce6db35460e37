import { expect } from 'chai';
import { caller, waitForJob, expectError } from './http-caller.js';
import type { ServiceUnderTest } from './memory-api-scenarios.js';
import { TEST_KEYS as KEYS } from './service-process.js';
import { drawLandscape, drawReceipt, nearDuplicate } from './test-images.js';

/** Image memories over HTTP, for every way of running the service: ingest, preview, find by text and by image. */
export function describeImageScenarios(title: string, service: ServiceUnderTest): void {
  describe(title, function () {
    this.timeout(180_000);
    const frank = () => caller(service, KEYS.acme, 'frank');
    let receipt: Buffer;
    let receiptJob: any;

    before(async () => {
      await service.start();
      receipt = await drawReceipt();
    });
    after(async () => {
      await service.stop();
    });

    it('accepts an image, serves its preview, and completes the job with what was seen in it', async () => {
      const ack = await frank().post('/v1/memory/image', { imageData: `data:image/png;base64,${receipt.toString('base64')}`, userContext: 'Receipt for the compost I bought last Saturday' });
      expect(ack.status, JSON.stringify(ack.body)).to.equal(202);
      expect(ack.body.status).to.equal('Accepted');
      expect(ack.body.jobId).to.match(/^img_job_\d{13}_frank$/);
      expect(ack.body.previewUrl).to.match(/^http:\/\/.+\/v1\/memory\/image\/img_job_\d{13}_frank\/preview$/);

      const preview = await fetch(ack.body.previewUrl, { headers: { authorization: `Bearer ${KEYS.acme}`, 'x-end-user-id': 'frank' } });
      expect(preview.status).to.equal(200);
      expect(preview.headers.get('content-type')).to.equal('image/webp');
      const previewBytes = Buffer.from(await preview.arrayBuffer());
      expect(previewBytes.subarray(8, 12).toString('latin1')).to.equal('WEBP');
      const other = await fetch(ack.body.previewUrl, { headers: { authorization: `Bearer ${KEYS.acme}`, 'x-end-user-id': 'grace' } });
      expect(other.status).to.equal(404);

      const job = await waitForJob(frank(), ack.body.jobId, 120_000);
      expect(job.status, JSON.stringify(job)).to.equal('Completed');
      receiptJob = job;
    });

    it('finds the image by a text query about its context or the text in it', async () => {
      for (const query of ['compost receipt', 'garden centre receipt 4417']) {
        const found = await frank().post('/v1/search', { query });
        const hit = found.body.data.find((m: any) => m.id === receiptJob.memoryIds[0]);
        expect(hit, `${query}: ${JSON.stringify(found.body)}`).to.exist;
        expect(hit.payload.memory_type).to.equal('image');
        expect(hit.payload.source_type).to.equal('image');
        expect(hit.payload.image.ocr_text).to.match(/4417/);
        expect(hit.payload.image.dominant_colours.length).to.be.greaterThan(0);
        expect(hit.payload.content).to.include('compost');
      }
    });

    it('ranks the original first for a near-duplicate query image, above a different picture', async () => {
      const landscape = await frank().post('/v1/memory/image', { imageData: (await drawLandscape()).toString('base64'), userContext: 'View from the cabin' });
      const landscapeJob = await waitForJob(frank(), landscape.body.jobId, 120_000);
      expect(landscapeJob.status).to.equal('Completed');
      const queryImage = (await nearDuplicate(receipt)).toString('base64');
      const found = await frank().post('/v1/search', { queryImage, options: { limit: 3 } });
      expect(found.status, JSON.stringify(found.body)).to.equal(200);
      expect(found.headers.get('server-timing'), 'says where its time went, as a text search does').to.match(/(^|, )search;dur=/);
      expect(found.body.data[0].id).to.equal(receiptJob.memoryIds[0]);
      expect(found.body.data[0].finalScore).to.be.within(0.9, 1);
      const other = found.body.data.find((m: any) => m.id !== receiptJob.memoryIds[0]);
      if (other) expect(other.finalScore).to.be.below(found.body.data[0].finalScore);
      // Filters apply inside both kNN searches: the look-alike receipt is left out, the other picture found.
      const filtered = await frank().post('/v1/search', { queryImage, options: { limit: 3 }, filters: { job_id: landscape.body.jobId } });
      expect(filtered.status, JSON.stringify(filtered.body)).to.equal(200);
      expect(filtered.body.data.map((m: any) => m.id)).to.deep.equal(landscapeJob.memoryIds);
      expect((await frank().post('/v1/search', { queryImage, filters: { memory_type: 'document_page' } })).body.data).to.deep.equal([]);
      expectError(await frank().post('/v1/search', { queryImage, filters: { memory_typ: 'image' } }), 400, 'FILTER.UNKNOWN_FIELD');
    });

    it('refuses what is not an acceptable image, with the status and code that say why', async () => {
      const storedBefore = await service.storedBlobs?.();
      expectError(await frank().post('/v1/memory/image', { imageData: 'not base64 at all!' }), 400, 'IMAGE.INVALID_BASE64');
      expectError(await frank().post('/v1/memory/image', {}), 400, 'IMAGE.MISSING_DATA');
      expectError(await frank().post('/v1/memory/image', { imageData: Buffer.from('%PDF-1.7\n1 0 obj\n').toString('base64') }), 415, 'IMAGE.UNSUPPORTED_FORMAT');
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
      expectError(await frank().post('/v1/memory/image', { imageData: svg.toString('base64') }), 415, 'IMAGE.UNSUPPORTED_FORMAT');
      expectError(await frank().post('/v1/memory/image', { imageData: receipt.subarray(0, 200).toString('base64') }), 400, 'IMAGE.UNREADABLE');
      expectError(await caller(service, KEYS.acme, null).post('/v1/memory/image', { imageData: receipt.toString('base64') }), 400, 'REQUEST.MISSING_END_USER');
      expectError(await frank().post('/v1/search', { queryImage: '%%%' }), 400, 'IMAGE.INVALID_BASE64');
      if (storedBefore !== undefined) expect(await service.storedBlobs!()).to.equal(storedBefore);
    });
  });
}
