/** The parts of a pdfjs text item that layout needs; kept structural so this file stays pure. */
export interface TextRun {
  str: string;
  /** pdfjs's own judgement that a line ends after this run. */
  hasEOL: boolean;
  /** [a, b, c, d, e, f] text matrix; f is the baseline's y, in points, growing upwards. */
  transform: readonly number[];
  height: number;
}

interface Line {
  text: string;
  /** Baseline y for upright text; null for rotated or skewed text, whose gaps say nothing about paragraphs. */
  y: number | null;
}

/** A gap this much larger than the page's usual line spacing reads as a paragraph break. */
const PARAGRAPH_GAP_FACTOR = 1.4;

/**
 * Joins a page's text runs in the order pdfjs gives them (content-stream order, which is how the page was
 * written and, for nearly every producer, reading order; re-sorting by position would interleave columns).
 * Lines end where pdfjs says; a line gap clearly wider than the page's typical one becomes a blank line, so
 * chunking can cut between paragraphs.
 */
export function joinTextRuns(runs: readonly TextRun[]): string {
  const lines = toLines(runs);
  const usual = medianLineGap(lines);
  let text = '';
  lines.forEach((line, index) => {
    if (index > 0) {
      const gap = lineGap(lines[index - 1], line);
      text += usual !== null && gap !== null && gap > usual * PARAGRAPH_GAP_FACTOR ? '\n\n' : '\n';
    }
    text += line.text;
  });
  return text;
}

function toLines(runs: readonly TextRun[]): Line[] {
  const lines: Line[] = [];
  let current: Line | null = null;
  for (const run of runs) {
    if (run.str !== '') {
      if (current === null) {
        current = { text: '', y: uprightBaseline(run) };
        lines.push(current);
      }
      current.text += run.str;
    }
    if (run.hasEOL) current = null;
  }
  return lines.filter((line) => line.text.trim() !== '');
}

function uprightBaseline(run: TextRun): number | null {
  const [a, b, c, d, , f] = run.transform;
  const upright = b === 0 && c === 0 && (a ?? 0) > 0 && (d ?? 0) > 0;
  return upright && typeof f === 'number' ? f : null;
}

/** Downward distance between baselines; null when it cannot be measured or the text jumps up (a new column). */
function lineGap(previous: Line | undefined, line: Line): number | null {
  if (previous?.y == null || line.y === null) return null;
  const gap = previous.y - line.y;
  return gap > 0 ? gap : null;
}

function medianLineGap(lines: Line[]): number | null {
  const gaps: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const gap = lineGap(lines[i - 1], lines[i] as Line);
    if (gap !== null) gaps.push(gap);
  }
  if (gaps.length === 0) return null;
  gaps.sort((x, y) => x - y);
  // The lower median: with two gaps, the smaller one is the line spacing and the larger may be a paragraph.
  return gaps[Math.floor((gaps.length - 1) / 2)] ?? null;
}
