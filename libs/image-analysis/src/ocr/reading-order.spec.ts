import { expect } from 'chai';
import { toOcrResult, type EngineLine } from './reading-order.js';

const line = (text: string, mean: number, x: number, y: number, h = 20, w = 100): EngineLine => ({
  text,
  mean,
  box: [[x, y], [x + w, y], [x + w, y + h], [x, y + h]],
});

describe('toOcrResult', () => {
  it('orders lines top to bottom, and left to right within a row', () => {
    const result = toOcrResult([line('total', 0.9, 10, 200), line('right', 0.9, 300, 52), line('left', 0.9, 10, 48), line('title', 0.9, 10, 5)], 0.5);
    expect(result.text).to.equal('title\nleft\nright\ntotal');
  });

  it('drops lines under the confidence threshold, and empty ones', () => {
    const result = toOcrResult([line('keep', 0.8, 0, 0), line('noise', 0.6, 0, 50), line('  ', 0.99, 0, 100)], 0.75);
    expect(result).to.deep.equal({ text: 'keep', lines: [{ text: 'keep', confidence: 0.8 }] });
  });

  it('trims text and rounds confidence', () => {
    expect(toOcrResult([line(' INVOICE 4417 ', 0.956912345, 0, 0)], 0).lines).to.deep.equal([{ text: 'INVOICE 4417', confidence: 0.9569 }]);
  });

  it('keeps lines that came without a box, in the order given', () => {
    expect(toOcrResult([{ text: 'a', mean: 0.9 }, { text: 'b', mean: 0.9 }], 0.5).text).to.equal('a\nb');
  });
});
