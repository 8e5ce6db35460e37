import { expect } from 'chai';
import { parseStageList, STAGE_NAMES, stageWorkerGroups } from './stages.js';

describe('parseStageList', () => {
  it('reads a comma-separated list, trims and de-duplicates it', () => {
    expect(parseStageList(' enricher, dual-writer ,enricher')).to.deep.equal(['enricher', 'dual-writer']);
  });
  it('means every stage when empty', () => {
    expect(parseStageList('')).to.deep.equal(STAGE_NAMES);
  });
  it('names the known stages when one is unknown', () => {
    expect(() => parseStageList('enricher,embedder')).to.throw(/unknown stage embedder; the stages are temporal-resolver, enricher/);
  });
});

describe('stageWorkerGroups', () => {
  it('gives every stage to exactly one worker, in both shapes', () => {
    for (const shape of ['each', 'shared'] as const) expect(stageWorkerGroups(shape).flat().sort()).to.deep.equal([...STAGE_NAMES].sort());
  });
  it('keeps the enricher, the stage that embeds, alone when the others share a worker', () => {
    expect(stageWorkerGroups('each')).to.have.length(STAGE_NAMES.length);
    const shared = stageWorkerGroups('shared');
    expect(shared).to.have.length(2);
    expect(shared[0]).to.deep.equal(['enricher']);
  });
});
