import { expect } from 'chai';
import { joinTextRuns, type TextRun } from './page-text.js';

function run(str: string, y: number, hasEOL: boolean, x = 50): TextRun {
  return { str, hasEOL, transform: [10, 0, 0, 10, x, y], height: 10 };
}

describe('joinTextRuns', () => {
  it('joins runs of a line and breaks lines where pdfjs marks an end of line', () => {
    const text = joinTextRuns([run('Hello ', 700, false), run('world', 700, true, 80), run('again', 688, false)]);
    expect(text).to.equal('Hello world\nagain');
  });

  it('turns a gap clearly wider than the usual line spacing into a paragraph break', () => {
    const runs = [run('one', 700, true), run('two', 688, true), run('three', 676, true), run('four', 640, true), run('five', 628, false)];
    expect(joinTextRuns(runs)).to.equal('one\ntwo\nthree\n\nfour\nfive');
  });

  it('reads double-spaced text as lines, not as one paragraph per line', () => {
    const runs = [run('one', 700, true), run('two', 676, true), run('three', 652, true), run('four', 628, false)];
    expect(joinTextRuns(runs)).to.equal('one\ntwo\nthree\nfour');
  });

  it('ignores empty runs and end-of-line markers that start no text', () => {
    const runs = [run('', 700, true), run('a', 700, true), run('', 688, true), run(' ', 676, true), run('b', 664, false)];
    expect(joinTextRuns(runs)).to.equal('a\nb');
  });

  it('does not measure gaps of rotated text', () => {
    const rotated: TextRun = { str: 'side', hasEOL: true, transform: [0, 10, -10, 0, 30, 400], height: 10 };
    expect(joinTextRuns([run('a', 700, true), rotated, run('b', 100, false)])).to.equal('a\nside\nb');
  });
});
