import { expect } from 'chai';
import { caller, waitForJob, type HasUrl, expectError } from './http-caller.js';
import type { ServiceUnderTest } from './memory-api-scenarios.js';
import { TEST_KEYS as KEYS } from './service-process.js';
import { drawReceipt } from './test-images.js';
import { MANUAL_PAGES, writePdf, writeScannedPdf } from './test-documents.js';

/** The largest upload the service under test must accept; the scenarios send one just over it. */
export const TEST_DOCUMENT_MAX_BYTES = 200_000;

/** POST /v1/ingest/document/upload of one file, as an end user of tenant acme unless another key is given. */
export async function uploadDocument(service: HasUrl, endUserId: string, bytes: Buffer, fileName: string, contentType = 'application/pdf', apiKey = KEYS.acme, headers: Record<string, string> = {}) {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: contentType }), fileName);
  const res = await fetch(`${service.url}/v1/ingest/document/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'x-end-user-id': endUserId, ...headers },
    body: form,
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

/**
 * PDF memories over HTTP, for every way of running the service. The service must be started with
 * MEMORY_MAX_DOCUMENT_BYTES=TEST_DOCUMENT_MAX_BYTES.
 */
export function describeDocumentScenarios(title: string, service: ServiceUnderTest): void {
  describe(title, function () {
    this.timeout(180_000);
    const hana = () => caller(service, KEYS.acme, 'hana');

    before(() => service.start());
    after(() => service.stop());

    it('accepts a PDF upload and makes each page a memory, found by a phrase on it', async () => {
      const ack = await uploadDocument(service, 'hana', await writePdf(MANUAL_PAGES), 'Boiler Manual (2024).pdf');
      expect(ack.status, JSON.stringify(ack.body)).to.equal(202);
      expect(ack.body.status).to.equal('Accepted');
      expect(ack.body.jobId).to.match(/^doc_job_\d{13}_hana$/);
      expect(ack.body.storagePath).to.include('hana').and.to.include('Boiler_Manual_2024_.pdf');

      const job = await waitForJob(hana(), ack.body.jobId, 120_000);
      expect(job.status, JSON.stringify(job)).to.equal('Completed');
      expect(job.memoryIds).to.have.length(MANUAL_PAGES.length);

      const found = await hana().post('/v1/search', { query: 'how long is the heat exchanger under warranty?', options: { limit: 3 } });
      const top = found.body.data[0];
      expect(top.id, JSON.stringify(found.body)).to.equal(job.memoryIds[2]);
      expect(top.payload.memory_type).to.equal('document_page');
      expect(top.payload.document).to.deep.include({ page_number: 3, page_count: 5, document_id: ack.body.jobId, file_name: 'Boiler Manual (2024).pdf' });
      expect(top.payload.content).to.include('warranty covers the heat exchanger');
    });

    it('reads a scanned page (no text layer) by OCR', async () => {
      const ack = await uploadDocument(service, 'hana', await writeScannedPdf(await drawReceipt()), 'scan.pdf');
      expect(ack.status, JSON.stringify(ack.body)).to.equal(202);
      const job = await waitForJob(hana(), ack.body.jobId, 120_000);
      expect(job.status, JSON.stringify(job)).to.equal('Completed');
      const found = await hana().post('/v1/search', { query: 'garden centre receipt', options: { limit: 5 } });
      const page = found.body.data.find((m: any) => m.id === job.memoryIds[0]);
      expect(page, JSON.stringify(found.body)).to.exist;
      expect(page.payload.document).to.include({ page_number: 1, text_source: 'ocr' });
      expect(page.payload.content).to.match(/4417/);
    });

    it('refuses what is not a PDF, or too large, before anything is stored', async () => {
      const png = await drawReceipt();
      const storedBefore = await service.storedBlobs?.();
      expectError(await uploadDocument(service, 'hana', png, 'receipt.pdf'), 415, 'DOCUMENT.NOT_PDF');
      expectError(await uploadDocument(service, 'hana', png, 'receipt.png', 'image/png'), 415, 'DOCUMENT.UNSUPPORTED_TYPE');
      const tooLarge = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(TEST_DOCUMENT_MAX_BYTES + 1000, 0x20)]);
      expectError(await uploadDocument(service, 'hana', tooLarge, 'huge.pdf'), 413, 'DOCUMENT.TOO_LARGE');
      const noFile = await fetch(`${service.url}/v1/ingest/document/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEYS.acme}`, 'x-end-user-id': 'hana' },
        body: (() => { const form = new FormData(); form.append('note', 'no file here'); return form; })(),
      });
      expectError({ status: noFile.status, body: await noFile.json() }, 400, 'DOCUMENT.MISSING_FILE');
      expectError(await hana().post('/v1/ingest/document/upload', { file: 'x' }), 415, 'REQUEST.UNSUPPORTED_MEDIA_TYPE');
      if (storedBefore !== undefined) expect(await service.storedBlobs!()).to.equal(storedBefore);
    });

    it('fails the job of a truncated PDF with a reason, and leaves nothing of it searchable', async () => {
      const pdf = await writePdf(['Page 1. The attic insulation was replaced by Kestrel Roofing in 2019.', 'Page 2. Nothing else.']);
      const ack = await uploadDocument(service, 'hana', pdf.subarray(0, Math.floor(pdf.length / 2)), 'attic.pdf');
      expect(ack.status).to.equal(202);
      const job = await waitForJob(hana(), ack.body.jobId, 120_000);
      expect(job.status).to.equal('Failed');
      expect(job.error.code).to.match(/^DOCUMENT\.(TRUNCATED|CORRUPT)$/);
      expect(job.error.reason).to.match(/^enricher failed: /);
      const found = await hana().post('/v1/search', { query: 'Kestrel Roofing attic insulation', options: { limit: 20 } });
      expect(found.body.data.map((m: any) => m.payload.job_id)).to.not.include(ack.body.jobId);
    });
  });
}
