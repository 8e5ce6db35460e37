import { expect } from 'chai';
import { Client } from '@elastic/elasticsearch';
import { lexicalTerms } from '@memory/lexical';
import { describeWithEngine, freshScope, localEngines, memoryRecord, skippedForEngine, uniqueName } from '@memory/testing';
import { dropElasticsearchStores, elasticsearchStoresOptionsFromEnv, openElasticsearchStores, type ElasticsearchStores, type ElasticsearchStoresOptions } from './index.js';

const DIMS = 8;
const { node } = elasticsearchStoresOptionsFromEnv();
// Indices of its own, and no expunge during the test: what is checked is the minute before a merge.
const options: ElasticsearchStoresOptions = { node, prefix: uniqueName('test-bm25-deleted'), dims: DIMS, refreshInterval: '100ms', expungeDelayMs: 600_000 };

/**
 * Lucene counts a deleted document in a term's document frequency until a merge drops it. One end user's BM25 scores
 * must not move when another tenant deletes a memory holding the words searched: that would tell the first that
 * such a memory existed, and was just deleted.
 */
describeWithEngine('BM25 scores and another tenant\'s deleted words', localEngines().elasticsearch, () => {
  let stores: ElasticsearchStores;

  before(async function () {
    this.timeout(60_000);
    if (skippedForEngine(this)) return;
    stores = await openElasticsearchStores(options);
  });
  after(async function () {
    this.timeout(30_000);
    if (skippedForEngine(this)) return;
    await stores?.close();
    await dropElasticsearchStores(options);
  });

  it('gives the same scores before and after another tenant deletes memories holding the words, until a merge', async function () {
    this.timeout(60_000);
    const reader = freshScope();
    const other = freshScope();
    await stores.vectors.upsert([
      memoryRecord(reader, 'r1', DIMS, { content: 'the zeppelin landed by the lake' }),
      memoryRecord(reader, 'r2', DIMS, { content: 'a quiet morning at the lake house' }),
      memoryRecord(reader, 'r3', DIMS, { content: 'zeppelin tickets for the weekend' }),
    ]);
    await stores.vectors.upsert(Array.from({ length: 6 }, (_, i) => memoryRecord(other, `o${i}`, DIMS, { content: i < 4 ? `zeppelin museum visit ${i}` : `lake swim ${i}` })));
    const client = new Client({ node });
    try {
      // Every document in one segment, so the delete below leaves a deleted document in it rather than a segment dropped whole.
      await client.indices.forcemerge({ index: `${options.prefix}-memories`, max_num_segments: 1 });
      await client.indices.refresh({ index: `${options.prefix}-memories` });
      const query = { terms: lexicalTerms('zeppelin lake'), k: 10 };
      const before = await stores.vectors.textSearch(reader, query);
      expect(before.map((hit) => hit.id).sort()).to.deep.equal(['r1', 'r2', 'r3']);

      await stores.vectors.delete(other, ['o0', 'o1', 'o2', 'o3']);
      await client.indices.refresh({ index: `${options.prefix}-memories` });
      const stats = await client.indices.stats({ index: `${options.prefix}-memories`, metric: 'docs' });
      expect(stats._all.primaries?.docs?.deleted, 'the deleted documents still in the segment').to.be.greaterThan(0);

      const after = await stores.vectors.textSearch(reader, query);
      expect(after.map((hit) => hit.id)).to.deep.equal(before.map((hit) => hit.id));
      after.forEach((hit, i) => expect(hit.score, hit.id).to.be.closeTo(before[i]!.score, 1e-6));
    } finally {
      await client.close();
    }
  });
});
