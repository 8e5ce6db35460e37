import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blobKeyOf, jobStatusOf, memoryIdOf, newDataKey, type ForgetRequested } from '@memory/contracts';
import { Keyring, type BlobStore, type DataKeyStore, type GraphStore, type JobStore, type Scope, type VectorStore } from '@memory/ports';
import { openFsBlobStore } from '@memory/blobs-fs';
import { openEmbeddedKeyStore } from '@memory/keys-embedded';
import { createEmbeddedGraphStore } from '@memory/graph-embedded';
import { createEmbeddedJobStore } from '@memory/jobs-embedded';
import { createEmbeddedVectorStore, openEmbeddedVectorStores } from '@memory/vectors-embedded';
import { forget } from '@memory/stage-forgetter';
import { applyJobStatus } from '@memory/stage-job-tracker';
import { memoryRecord } from '@memory/testing';

/**
 * A PDF's pages are sealed apart, so one page can be deleted while the others are still in the pipeline. Deleting
 * the only page stored so far must not take the job's record and PDF with it: the pages behind it need both.
 */
describe('deleting a page of a PDF whose other pages are still in the pipeline', function () {
  this.timeout(30_000);
  const T = 1_700_000_000_000;
  const scope: Scope = { tenantId: 'acme', endUserId: 'alice' };
  const jobId = `doc_job_${T}_alice`;
  const pdfKey = blobKeyOf(scope.tenantId, scope.endUserId, jobId, 'manual.pdf');
  let dir: string;
  let keyStore: DataKeyStore;
  let stores: { vectors: VectorStore; centroids: import('@memory/ports').CentroidStore; close(): Promise<void> };
  let visualVectors: VectorStore;
  let graph: GraphStore;
  let jobs: JobStore;
  let blobs: BlobStore;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'forget-document-page-'));
    keyStore = await openEmbeddedKeyStore({ dir: join(dir, 'keys') });
    stores = openEmbeddedVectorStores({ dir: join(dir, 'vectors') });
    visualVectors = createEmbeddedVectorStore({ dir: join(dir, 'visual') });
    graph = createEmbeddedGraphStore({ dir: join(dir, 'graph') });
    jobs = createEmbeddedJobStore({ dir: join(dir, 'jobs') });
    blobs = await openFsBlobStore({ dir: join(dir, 'blobs') });
    await keyStore.create([jobId, memoryIdOf(jobId, 0), memoryIdOf(jobId, 1)].map((keyId) => ({ scope, keyId, key: newDataKey() })));
    await blobs.put(pdfKey, Buffer.from('%PDF-1.7 two pages'), 'application/pdf');
    await stores.vectors.upsert([memoryRecord(scope, memoryIdOf(jobId, 0), 4, { jobId, createdAt: T })]);
  });
  afterEach(async () => {
    await Promise.all([keyStore.close(), stores.close(), visualVectors.close(), graph.close(), jobs.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  const job = { jobId, ...scope };
  const deletePage = (partIndex: number): ForgetRequested => ({ jobId: `del_job_${T + 900}_alice`, ...scope, target: 'memory', memoryId: memoryIdOf(jobId, partIndex), targetJobId: null, acceptedAt: T + 900, keysDestroyed: 1 });
  const run = (request: ForgetRequested) => forget(request, { vectors: stores.vectors, visualVectors, graph, centroids: stores.centroids, blobs, jobs, keys: new Keyring(keyStore) });

  it('keeps the job\'s record, PDF and key while the job runs', async () => {
    await jobs.update(scope.tenantId, jobId, (current) => applyJobStatus(current, jobStatusOf(job, 'Processing', { stage: 'enricher', partCount: 2 }), T + 10));
    await run(deletePage(0));
    expect(await stores.vectors.ids(scope)).to.deep.equal([]);
    expect((await jobs.get(scope.tenantId, jobId))?.state, 'the job record').to.equal('Processing');
    expect(await blobs.head(pdfKey), 'the PDF the other page is read from').to.not.equal(null);
    expect((await keyStore.forgotten(scope, [jobId])).size, 'the job\'s key').to.equal(0);
  });

  it('keeps a Failed job\'s record, so reports of pages behind the failed one cannot bring it back as Processing', async () => {
    await jobs.update(scope.tenantId, jobId, (current) => applyJobStatus(current, jobStatusOf(job, 'Failed', { stage: 'enricher', errorCode: 'DOCUMENT.TOO_COMPLEX', reason: 'page 2' }), T + 10));
    await run(deletePage(0));
    expect((await jobs.get(scope.tenantId, jobId))?.state).to.equal('Failed');
  });

  it('takes the job whole again when a retried forget finds its record already gone', async () => {
    await jobs.update(scope.tenantId, jobId, (current) => applyJobStatus(current, jobStatusOf(job, 'Completed', { stage: 'centroid-calibrator', partIndex: 0, partCount: 1, memoryId: memoryIdOf(jobId, 0) }), T + 10));
    // The first attempt took the key, the file and the record, then failed before its other removals.
    await keyStore.forget(scope, [jobId]);
    await blobs.deletePrefix(`${scope.tenantId}/${scope.endUserId}/${jobId}/`);
    await jobs.forget(scope.tenantId, [jobId]);
    // The retry still removes what the first attempt did not reach: the deliveries about the job.
    const deliveriesOf: string[][] = [];
    const webhooks = { forgetUser: async () => 0, forgetJobs: async (_scope: Scope, jobIds: string[]) => (deliveriesOf.push(jobIds), 1) };
    await forget(deletePage(0), { vectors: stores.vectors, visualVectors, graph, centroids: stores.centroids, blobs, jobs, keys: new Keyring(keyStore), webhooks });
    expect(deliveriesOf).to.deep.include([jobId]);
  });

  it('takes the job whole once it has ended and its last page goes', async () => {
    await jobs.update(scope.tenantId, jobId, (current) => applyJobStatus(current, jobStatusOf(job, 'Completed', { stage: 'centroid-calibrator', partIndex: 0, partCount: 1, memoryId: memoryIdOf(jobId, 0) }), T + 10));
    expect((await jobs.get(scope.tenantId, jobId))?.state).to.equal('Completed');
    await run(deletePage(0));
    expect(await jobs.get(scope.tenantId, jobId)).to.equal(null);
    expect(await blobs.head(pdfKey)).to.equal(null);
    expect((await keyStore.forgotten(scope, [jobId])).size, 'the job\'s key destroyed').to.equal(1);
  });
});
