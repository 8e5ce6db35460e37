import { expect } from 'chai';
import type { NearQuery, Scope, ScoredTimedId, VectorStore } from '@memory/ports';
import { withEpisodeContext } from './episodes.js';

const scope: Scope = { tenantId: 't', endUserId: 'u' };
const MINUTE = 60_000;

/** Just the two reads episode context makes, over memories given as id -> (creation time, query cosine). */
function storeOf(memories: Record<string, { time: number; cosine: number }>): VectorStore {
  const store: Partial<VectorStore> = {
    creationTimes: async (_scope: Scope, ids: string[]) => new Map(ids.filter((id) => memories[id]).map((id) => [id, memories[id]!.time])),
    createdNear: async (_scope: Scope, { instants, windowMs, limit }: NearQuery): Promise<ScoredTimedId[]> =>
      Object.entries(memories)
        .filter(([, m]) => instants.some((t) => Math.abs(t - m.time) <= windowMs))
        .map(([id, m]) => ({ id, time: m.time, score: m.cosine }))
        .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
        .slice(0, limit),
  };
  return store as VectorStore;
}

describe('withEpisodeContext', () => {
  it('lifts a memory by its best neighbour within the window, and not past it', async () => {
    const store = storeOf({
      question: { time: 0, cosine: 0.8 },
      answer: { time: MINUTE, cosine: 0.1 },
      later: { time: 10 * MINUTE, cosine: 0.1 },
    });
    const out = await withEpisodeContext(store, scope, new Float32Array(1), [{ id: 'question', score: 0.8 }], [], 10);
    const answer = out.dense.find((h) => h.id === 'answer');
    expect(answer!.score).to.be.closeTo(0.1 + 0.5 * 0.8, 1e-9);
    expect(out.boosts.get('answer')!.neighbour).to.equal('question');
    expect(out.dense.find((h) => h.id === 'later')).to.equal(undefined);
  });

  it('counts only the nearest memories on each side as neighbours when many are created at once', async () => {
    // An import: 40 memories a second apart; only the 3 on each side of the match are its exchange.
    const memories: Record<string, { time: number; cosine: number }> = {};
    for (let i = 0; i < 40; i++) memories[`m${i}`] = { time: i * 1000, cosine: i === 20 ? 0.9 : 0.05 };
    const out = await withEpisodeContext(storeOf(memories), scope, new Float32Array(1), [{ id: 'm20', score: 0.9 }], [], 100);
    const lifted = [...out.boosts].filter(([, boost]) => boost.neighbour === 'm20').map(([id]) => id).sort();
    expect(lifted).to.deep.equal(['m17', 'm18', 'm19', 'm21', 'm22', 'm23']);
  });

  it('reads the creation times only of seeds whose hits came without one, and ranks alike either way', async () => {
    const memories = { question: { time: 0, cosine: 0.8 }, answer: { time: MINUTE, cosine: 0.1 }, aside: { time: 2 * MINUTE, cosine: 0.3 } };
    const asked: string[][] = [];
    const store = storeOf(memories);
    const counting: VectorStore = { ...store, creationTimes: (s: Scope, ids: string[]) => (asked.push(ids), store.creationTimes(s, ids)) };
    const bare = await withEpisodeContext(counting, scope, new Float32Array(1), [{ id: 'question', score: 0.8 }], [{ id: 'aside', score: 2 }], 10);
    expect(asked).to.deep.equal([['question', 'aside']]);
    asked.length = 0;
    const timed = await withEpisodeContext(counting, scope, new Float32Array(1), [{ id: 'question', score: 0.8, createdAt: 0 }], [{ id: 'aside', score: 2 }], 10);
    expect(asked).to.deep.equal([['aside']]);
    asked.length = 0;
    const allTimed = await withEpisodeContext(counting, scope, new Float32Array(1), [{ id: 'question', score: 0.8, createdAt: 0 }], [{ id: 'aside', score: 2, createdAt: 2 * MINUTE }], 10);
    expect(asked).to.deep.equal([]);
    expect(timed).to.deep.equal(bare);
    expect(allTimed).to.deep.equal(bare);
  });
});
