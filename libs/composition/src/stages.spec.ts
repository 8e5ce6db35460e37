import { expect } from 'chai';
import { parseStageList, STAGE_NAMES } from './stages.js';

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
