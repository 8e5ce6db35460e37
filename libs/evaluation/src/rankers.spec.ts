import { expect } from 'chai';
import { bm25Rankings, cosineTopK } from './index.js';

describe('baseline rankers', () => {
  it('BM25 ranks the turns of one conversation by the question terms', () => {
    const turns = [
      { id: 'D1:1', text: 'Caroline: I went to a support group yesterday' },
      { id: 'D1:2', text: 'Melanie: I painted a lake at sunrise' },
      { id: 'D1:3', text: 'Melanie: the kids loved camping by the lake' },
    ];
    const [painting, nothing] = bm25Rankings(turns, ['What did Melanie paint?', 'zebra'], 2);
    expect(painting![0]).to.equal('D1:2');
    expect(nothing).to.deep.equal([]);
  });

  it('cosine top k orders by angle, not length, ties by position', () => {
    const v = (...xs: number[]) => Float32Array.from(xs);
    const ids = ['a', 'b', 'c', 'd'];
    expect(cosineTopK(v(1, 0), [v(0, 1), v(10, 1), v(1, 1), v(2, 0.2)], ids, 3)).to.deep.equal(['b', 'd', 'c']);
  });
});
