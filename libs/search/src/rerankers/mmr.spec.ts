import { expect } from 'chai';
import { rerankersFor, runChain, type RerankContext, type VectorCandidate } from './index.js';
import { mmrScores } from './mmr.js';

const at = 1_700_000_000_000;

function candidate(id: string, score: number, vector: number[]): VectorCandidate {
  return { id, vector: Float32Array.from(vector), score, steps: {} };
}

const context = (centroidMode: RerankContext['centroidMode']): RerankContext => ({
  query: 'what do I like',
  limit: 3,
  now: at,
  centroidMode,
  depths: { semantic: { SPECIFIC: { perLimit: 6, floor: 120 }, META: { perLimit: 10, floor: 120 } }, lexical: 200, listed: { perLimit: 4, floor: 50 }, identifiers: { floor: 20 }, rerank: { perLimit: 2, extra: 20 } },
});

describe('maximal marginal relevance as a reranker', () => {
  it('hands the picks the pool’s relevances in pick order', () => {
    expect(mmrScores([{ score: 0.9 }, { score: 0.8 }, { score: 0.85 }, { score: 0.2 }])).to.deep.equal([0.9, 0.85, 0.8, 0.2]);
    expect(mmrScores([])).to.deep.equal([]);
  });

  it('puts a different memory ahead of a near-copy of the best one in the final order (META)', () => {
    const candidates = [candidate('painting', 0.9, [1, 0, 0]), candidate('painting again', 0.85, [0.99, 0.14, 0]), candidate('camping', 0.8, [0, 0, 1])];
    const ranked = runChain(candidates, rerankersFor(['mmr'], context('META')).byVector, context('META')).sort((a, b) => b.score - a.score);
    expect(ranked.map((c) => c.id)).to.deep.equal(['painting', 'camping', 'painting again']);
    expect(ranked.map((c) => c.score)).to.deep.equal([0.9, 0.85, 0.8]);
    expect(ranked[1]!.steps.mmr).to.deep.equal({ pick: 2, relevance: 0.8, score: 0.85 });
  });

  it('takes no part in a SPECIFIC search', () => {
    expect(rerankersFor(['mmr'], context('SPECIFIC')).byVector).to.deep.equal([]);
    expect(rerankersFor(['mmr'], context('META')).byVector.map((r) => r.name)).to.deep.equal(['mmr']);
  });
});
