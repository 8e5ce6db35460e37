import { expect } from 'chai';
import { FLOOR_RANK, MIN_RELATIVE_HITS, cosineBackground, fuse } from './fusion.js';

describe('fusion', () => {
  it('deduplicates across lists and within one, keeping the better place', () => {
    const fused = fuse([
      { name: 'dense', weight: 1, hits: [{ id: 'a', score: 0.9 }, { id: 'b', score: 0.8 }, { id: 'a', score: 0.1 }] },
      { name: 'bm25', weight: 1, hits: [{ id: 'b', score: 12 }, { id: 'c', score: 3 }] },
    ]);
    expect(fused.map((f) => f.id)).to.have.members(['a', 'b', 'c']);
    expect(fused).to.have.length(3);
    expect(fused.find((f) => f.id === 'a')!.contributions['dense']!.rank).to.equal(1);
  });

  it('scores in 0..1, 1 only for a memory first in every list', () => {
    const fused = fuse([
      { name: 'dense', weight: 1, hits: [{ id: 'a', score: 0.7 }, { id: 'b', score: 0.6 }] },
      { name: 'bm25', weight: 0.5, hits: [{ id: 'a', score: 40 }, { id: 'b', score: 1 }] },
    ]);
    expect(fused[0]!.id).to.equal('a');
    expect(fused[0]!.score).to.be.closeTo(1, 1e-12);
    for (const f of fused) expect(f.score).to.be.within(0, 1);
    expect(fuse([{ name: 'x', weight: 1, hits: [{ id: 'a', score: -3 }] }])[0]!.score).to.be.within(0, 1);
  });

  it('ranks a memory found by two strategies above one found by either alone', () => {
    const fused = fuse([
      { name: 'dense', weight: 1, hits: [{ id: 'a', score: 0.8 }, { id: 'both', score: 0.78 }] },
      { name: 'bm25', weight: 1, hits: [{ id: 'c', score: 10 }, { id: 'both', score: 9.5 }] },
    ]);
    expect(fused[0]!.id).to.equal('both');
  });

  it('normalises a list of cosines from its weakest hit, and divides other lists and short ones by their best', () => {
    const cosines = Array.from({ length: 10 }, (_, i) => ({ id: `m${i}`, score: 0.9 - i * 0.01 }));
    const relative = fuse([{ name: 'dense', weight: 1, relativeScores: true, hits: cosines }]);
    const normalised = (fused: ReturnType<typeof fuse>, id: string) => fused.find((f) => f.id === id)!.contributions['dense']!.normalised;
    expect(normalised(relative, 'm0')).to.equal(1);
    expect(normalised(relative, 'm9')).to.equal(0);
    expect(normalised(relative, 'm3')).to.be.closeTo(6 / 9, 1e-9);
    // The same scores as BM25-like scores, or too few to know the background: divided by the best.
    expect(normalised(fuse([{ name: 'dense', weight: 1, hits: cosines }]), 'm9')).to.be.closeTo(0.81 / 0.9, 1e-9);
    expect(normalised(fuse([{ name: 'dense', weight: 1, relativeScores: true, hits: cosines.slice(0, 3) }]), 'm2')).to.be.closeTo(0.88 / 0.9, 1e-9);
  });

  it('takes the zero of a long list of cosines at rank FLOOR_RANK, so a deeper list does not change the first ones', () => {
    const cosines = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `m${i}`, score: 0.9 - i * 0.001 }));
    const of = (n: number) => fuse([{ name: 'dense', weight: 1, relativeScores: true, hits: cosines(n) }]);
    const normalised = (fused: ReturnType<typeof fuse>, id: string) => fused.find((f) => f.id === id)!.contributions['dense']!.normalised;
    expect(normalised(of(200), `m${FLOOR_RANK - 1}`)).to.equal(0);
    expect(normalised(of(200), 'm150')).to.equal(0);
    for (const id of ['m0', 'm5', 'm20']) expect(normalised(of(200), id)).to.equal(normalised(of(60), id));
  });

  it('reads the background of a list of cosines from the list itself, whatever band the model puts them in', () => {
    // Two models ranking alike, one spreading its cosines over 0.45-0.70, the other over 0.78-0.86.
    const list = (low: number, high: number, n = 120) => Array.from({ length: n }, (_, i) => ({ id: `m${i}`, score: high - ((high - low) * i) / (n - 1) }));
    expect(cosineBackground(list(0.45, 0.7))).to.equal(list(0.45, 0.7)[FLOOR_RANK - 1]!.score);
    expect(cosineBackground(list(0.78, 0.86))).to.equal(list(0.78, 0.86)[FLOOR_RANK - 1]!.score);
    expect(cosineBackground(list(0.45, 0.7, 20))).to.equal(0.45);
    expect(cosineBackground(list(0.45, 0.7, MIN_RELATIVE_HITS - 1))).to.equal(0);
    expect(cosineBackground([])).to.equal(0);
    const normalised = (low: number, high: number) =>
      fuse([{ name: 'dense', weight: 1, relativeScores: true, hits: list(low, high) }]).map((f) => f.contributions['dense']!.normalised);
    const wide = normalised(0.45, 0.7);
    normalised(0.78, 0.86).forEach((value, i) => expect(value).to.be.closeTo(wide[i]!, 1e-9));
  });

  it('lets a heavier list lead and ignores empty lists in the normalisation', () => {
    const heavy = fuse([
      { name: 'direct_lookup', weight: 3, hits: [{ id: 'code', score: 1 }] },
      { name: 'dense', weight: 1, hits: [{ id: 'near', score: 0.9 }] },
      { name: 'bm25', weight: 1, hits: [] },
    ]);
    expect(heavy.map((f) => f.id)).to.deep.equal(['code', 'near']);
    expect(heavy[0]!.score).to.be.closeTo(0.75, 1e-12);
    expect(fuse([])).to.deep.equal([]);
  });
});
