import { expect } from 'chai';
import { rankedSessions, sessionOfTurn, sessionRecall } from './session-recall.js';

describe('session-level recall', () => {
  it('reads the session from a turn id', () => {
    expect(sessionOfTurn('D3:12')).to.equal(3);
    expect(sessionOfTurn('D12:1')).to.equal(12);
    expect(sessionOfTurn('D:11:26')).to.equal(null);
    expect(sessionOfTurn('session_3')).to.equal(null);
  });

  it('maps results to sessions in the order first met, each once', () => {
    expect(rankedSessions(['D3:1', 'D1:4', 'D3:7', 'D2:2', 'D1:1'])).to.deep.equal([3, 1, 2]);
  });

  it('reads only the first ten results, however few sessions they hold', () => {
    const tenOfSessionOne = Array.from({ length: 10 }, (_, i) => `D1:${i + 1}`);
    expect(rankedSessions([...tenOfSessionOne, 'D2:1'])).to.deep.equal([1]);
    expect(sessionRecall([...tenOfSessionOne, 'D2:1'], ['D2:1'], 10)).to.equal(false);
  });

  it('gives a result that is no turn a place of its own', () => {
    expect(rankedSessions(['D1:1', null, null, 'D2:1'])).to.deep.equal([1, null, null, 2]);
    expect(sessionRecall(['D1:1', null, null, 'D2:1'], ['D2:1'], 3)).to.equal(false);
    expect(sessionRecall(['D1:1', null, null, 'D2:1'], ['D2:1'], 4)).to.equal(true);
  });

  it('counts k among distinct sessions, not results', () => {
    // Sessions in order: 4, 2, 5, 1, 3, 6: the evidence session 6 is the sixth distinct one but the eighth result.
    const ranked = ['D4:1', 'D4:2', 'D2:1', 'D5:1', 'D1:1', 'D1:9', 'D3:3', 'D6:6'];
    expect(sessionRecall(ranked, ['D6:1'], 5)).to.equal(false);
    expect(sessionRecall(ranked, ['D6:1'], 6)).to.equal(true);
    expect(sessionRecall(ranked, ['D4:9'], 1)).to.equal(true);
  });

  it('treats k past the number of distinct sessions as all of them', () => {
    expect(sessionRecall(['D1:1', 'D1:2'], ['D1:5'], 10)).to.equal(true);
    expect(sessionRecall(['D1:1', 'D1:2'], ['D2:5'], 10)).to.equal(false);
    expect(sessionRecall([], ['D2:5'], 5)).to.equal(false);
  });

  it('is a hit when any session of multi-session evidence is found', () => {
    const ranked = ['D7:1', 'D8:1', 'D9:1', 'D2:4'];
    expect(sessionRecall(ranked, ['D1:3', 'D2:4'], 3)).to.equal(false);
    expect(sessionRecall(ranked, ['D1:3', 'D2:4'], 4)).to.equal(true);
    expect(sessionRecall(ranked, ['D9:3', 'D1:1'], 3)).to.equal(true);
  });

  it('refuses questions without evidence and k below 1', () => {
    expect(() => sessionRecall(['D1:1'], [], 5)).to.throw(/without evidence/);
    expect(() => sessionRecall(['D1:1'], ['D1:1'], 0)).to.throw(/at least 1/);
  });
});
