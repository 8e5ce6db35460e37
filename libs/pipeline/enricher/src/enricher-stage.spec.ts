import { expect } from 'chai';
import type { MemoryResolved } from '@memory/contracts';
import type { Embedder } from '@memory/ports';
import { createEnricher } from '@memory/enrichment';
import type { Incoming } from '@memory/pipeline-runtime';
import { enricherStage } from './index.js';

/**
 * The stage's job is assembling the enriched event: the real enrichment library runs; the embedder is a small
 * deterministic one (its own adapter is tested against the real model), which records what it was asked.
 */
function recordingEmbedder(): Embedder & { calls: Array<{ texts: string[]; purpose: string }> } {
  const calls: Array<{ texts: string[]; purpose: string }> = [];
  return {
    calls,
    model: { name: 'letters', version: '1', dimensions: 3 },
    async embed(texts, purpose) {
      calls.push({ texts, purpose });
      return texts.map((t) => Float32Array.from([t.length, 1, 0]));
    },
    async close() {},
  };
}

const resolved = (n: number, content: string): Incoming<'resolved'> => ({
  event: 'resolved', topic: 'memory.resolved', partition: 0, offset: n, key: 'acme/alice', timestamp: 5,
  value: {
    jobId: `job_${n}_alice`, tenantId: 'acme', endUserId: 'alice', kind: 'text', acceptedAt: 2000, referenceTime: 1500,
    timeZone: null, userContext: 'horror fan', originalContent: content, resolvedContent: content, eventTimes: [], blob: null,
    metadata: n === 2 ? { project: 'apollo', pinned: true } : null, memoryId: null, cause: null,
  } satisfies MemoryResolved,
});

describe('enricher stage', () => {
  it('enriches and embeds a whole batch in one call, and reports progress per job', async () => {
    const embedder = recordingEmbedder();
    const enricher = await createEnricher();
    const out = await enricherStage.process([resolved(1, 'We watched "The Shining" with Jake'), resolved(2, 'I love hiking')], { enricher, embedder });
    expect(embedder.calls).to.have.length(1);
    expect(embedder.calls[0]!.purpose).to.equal('passage');
    expect(embedder.calls[0]!.texts).to.have.length(2);
    expect(out).to.have.length(2);
    const [enriched, status] = out[0]!;
    expect(enriched!.event).to.equal('enriched');
    const e = enriched!.value as import('@memory/contracts').MemoryEnriched;
    expect(e.memoryId).to.equal('mem_job_1_alice_0');
    expect(e.createdAt).to.equal(1500); // the reference time: source.timestamp or acceptance
    expect(e.embeddingModel).to.equal('letters@1');
    expect(e.vector).to.have.length(3);
    expect(e.mentionedTitles).to.include('The Shining');
    expect(status!.event).to.equal('jobStatus');
    expect((status!.value as { stage: string }).stage).to.equal('enricher');
    expect(e.metadata).to.equal(null);
    expect((out[1]![0]!.value as import('@memory/contracts').MemoryEnriched).metadata).to.deep.equal({ project: 'apollo', pinned: true });
  });

  it('keeps the id of the memory an update rewrites, and its cause', async () => {
    const update = resolved(7, 'I love climbing');
    update.value = { ...update.value, jobId: 'upd_job_7_alice', memoryId: 'mem_job_1_alice_0', cause: 'update' };
    const [enriched] = (await enricherStage.process([update], { enricher: await createEnricher(), embedder: recordingEmbedder() }))[0]!;
    const e = enriched!.value as import('@memory/contracts').MemoryEnriched;
    expect(e.memoryId).to.equal('mem_job_1_alice_0');
    expect(e.jobId).to.equal('upd_job_7_alice');
    expect(e.cause).to.equal('update');
  });

  it('refuses a text job without content (the runner dead-letters it)', async () => {
    const bad = resolved(3, 'x');
    bad.value.resolvedContent = null;
    try {
      await enricherStage.process([bad], { enricher: await createEnricher(), embedder: recordingEmbedder() });
      expect.fail('should throw');
    } catch (error) {
      expect((error as { code: string }).code).to.equal('ENRICH.NO_CONTENT');
    }
  });
});
