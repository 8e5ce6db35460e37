import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOnnxEmbedder } from '@memory/embedder-onnx';
import { createEmbeddedGraphStore } from '@memory/graph-embedded';
import type { Embedder, GraphStore } from '@memory/ports';
import { searchConfig, searchMemories } from '@memory/search';
import { addMembers, emptyCentroid } from '@memory/stage-centroid-calibrator';
import { freshScope, memoryRecord } from '@memory/testing';
import { openEmbeddedVectorStores, type EmbeddedVectorStores } from '@memory/vectors-embedded';

interface ProbeUser {
  name: string;
  memories: string[];
  broad: string[];
  specific: string[];
}

const PROBE = JSON.parse(readFileSync(new URL('./routing-probe.json', import.meta.url), 'utf8')) as { users: ProbeUser[] };
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 20, 12);

/**
 * Automatic routing with the default model, on made-up users of a chat app (routing-probe.json): a question about
 * the user as a whole should be searched broadly (META), a question about one fact narrowly (SPECIFIC). A sanity
 * check that both modes are reachable and mostly chosen right, not a benchmark: the README gives the counts.
 */
describe('automatic routing on the probe users (default embedding model)', function () {
  this.timeout(120_000);
  let dir: string;
  let stores: EmbeddedVectorStores;
  let graph: GraphStore;
  let embedder: Embedder;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'routing-probe-'));
    stores = openEmbeddedVectorStores({ dir: join(dir, 'vectors') });
    graph = createEmbeddedGraphStore({ dir: join(dir, 'graph') });
    embedder = await createOnnxEmbedder({});
  });

  after(async () => {
    await embedder?.close();
    await stores?.close();
    await graph?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const user of PROBE.users) {
    it(`${user.name}: most broad questions go META, most specific ones SPECIFIC`, async () => {
      const scope = freshScope(user.name);
      const vectors = await embedder.embed(user.memories, 'passage');
      await stores.vectors.upsert(user.memories.map((content, i) => memoryRecord(scope, `${user.name}-${i}`, vectors[i]!.length, { content, originalContent: content, entities: [], createdAt: NOW - (user.memories.length - i) * DAY, vector: vectors[i]! })));
      // The centroid as the centroid-calibrator stage folds the memories in, in the order they were recorded.
      const { centroid, shares } = addMembers(emptyCentroid(embedder.model.name, vectors[0]!.length), vectors);
      await stores.centroids.save(scope, centroid, new Map(shares.map((similarity, i) => [`${user.name}-${i}`, { version: 1, similarity }])));

      const modeOf = async (query: string) => {
        const config = searchConfig({ query, useDynamicScoring: false, options: { limit: 10 } }, { scope, route: 'search' });
        return (await searchMemories({ vectors: stores.vectors, centroids: stores.centroids, graph, embedder, now: () => NOW }, config)).routing.centroidMode;
      };
      const wrong = [
        ...(await Promise.all(user.broad.map(async (q) => ((await modeOf(q)) === 'META' ? null : `broad, SPECIFIC: ${q}`)))),
        ...(await Promise.all(user.specific.map(async (q) => ((await modeOf(q)) === 'SPECIFIC' ? null : `specific, META: ${q}`)))),
      ].filter((w): w is string => w !== null);
      const broadWrong = wrong.filter((w) => w.startsWith('broad')).length;
      const specificWrong = wrong.length - broadWrong;
      expect(broadWrong < user.broad.length / 2 && specificWrong < user.specific.length / 2, wrong.join('\n')).to.equal(true);
    });
  }
});
