import { expect } from 'chai';
import type { IngestRequested, MemoryResolved } from '@memory/contracts';
import type { Incoming } from '@memory/pipeline-runtime';
import { temporalResolverStage } from './index.js';

const ACCEPTED = Date.parse('2023-05-08T13:56:00Z'); // a Monday

const request = (extra: Partial<IngestRequested>): Incoming<'ingestRequested'> => ({
  event: 'ingestRequested', topic: 'memory.ingest.requested', partition: 0, offset: 0, key: 'acme/alice', timestamp: ACCEPTED + 60_000,
  value: { jobId: 'job_1_alice', tenantId: 'acme', endUserId: 'alice', kind: 'text', acceptedAt: ACCEPTED, content: 'I met Jake yesterday',
    sourceTimestamp: null, timeZone: null, userContext: null, blob: null, metadata: null, memoryId: null, cause: null, ...extra },
});

describe('temporal-resolver stage', () => {
  it('resolves against the acceptance time and keeps the original text', async () => {
    const [[resolved, status]] = (await temporalResolverStage.process([request({})], {})) as unknown as [[{ value: MemoryResolved }, { value: { stage: string } }]];
    expect(resolved.value.originalContent).to.equal('I met Jake yesterday');
    expect(resolved.value.resolvedContent).to.include('2023-05-07');
    expect(resolved.value.referenceTime).to.equal(ACCEPTED);
    expect(resolved.value.eventTimes[0]!.relative).to.equal(true);
    expect(status.value.stage).to.equal('temporal-resolver');
  });

  it('resolves against source.timestamp when the client backfills', async () => {
    const backfill = Date.parse('2020-01-15T10:00:00Z');
    const [[resolved]] = (await temporalResolverStage.process([request({ sourceTimestamp: backfill })], {})) as unknown as [[{ value: MemoryResolved }]];
    expect(resolved.value.referenceTime).to.equal(backfill);
    expect(resolved.value.resolvedContent).to.include('2020-01-14');
  });

  it('gives the same output on every replay', async () => {
    const a = await temporalResolverStage.process([request({ content: 'Lunch next Friday at noon' })], {});
    const b = await temporalResolverStage.process([request({ content: 'Lunch next Friday at noon' })], {});
    expect(JSON.stringify(a)).to.equal(JSON.stringify(b));
  });

  it("resolves an image's user context, its words at ingestion", async () => {
    const image = request({ kind: 'image', content: null, userContext: "Lily's party last Saturday", blob: { key: 'acme/alice/img_job_1_alice/original', contentType: 'image/png', size: 10, fileName: null } });
    const [[resolved]] = (await temporalResolverStage.process([image], {})) as unknown as [[{ value: MemoryResolved }]];
    expect(resolved.value.originalContent).to.equal("Lily's party last Saturday");
    expect(resolved.value.resolvedContent).to.include('2023-05-06');
    expect(resolved.value.blob?.key).to.equal('acme/alice/img_job_1_alice/original');
  });

  it("passes the request's metadata on unchanged", async () => {
    const metadata = { project: 'apollo', priority: 2, pinned: true };
    const [[resolved]] = (await temporalResolverStage.process([request({ metadata })], {})) as unknown as [[{ value: MemoryResolved }]];
    expect(resolved.value.metadata).to.deep.equal(metadata);
  });

  it('passes on the memory an update rewrites, and resolves against the memory\'s own time the edge sends', async () => {
    const original = Date.parse('2020-01-15T10:00:00Z');
    const update = request({ jobId: 'upd_job_5_alice', memoryId: 'mem_job_1_alice_0', cause: 'update', sourceTimestamp: original });
    const [[resolved]] = (await temporalResolverStage.process([update], {})) as unknown as [[{ value: MemoryResolved }]];
    expect(resolved.value.memoryId).to.equal('mem_job_1_alice_0');
    expect(resolved.value.cause).to.equal('update');
    expect(resolved.value.resolvedContent).to.include('2020-01-14');
  });
});
