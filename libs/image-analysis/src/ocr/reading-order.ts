export interface OcrLine {
  text: string;
  /** Mean character probability of the line, 0-1. */
  confidence: number;
}

export interface OcrResult {
  /** The kept lines joined by newlines, top to bottom, left to right. */
  text: string;
  lines: OcrLine[];
}

/** A line as the engine reports it: text, mean probability, and a quadrilateral [[x,y] x4] starting top-left. */
export interface EngineLine {
  text: string;
  mean: number;
  box?: number[][] | undefined;
}

/**
 * Drops empty and low-confidence lines and orders the rest as a reader would: by the line's top edge, and
 * lines whose tops are within half a line height of each other from left to right.
 */
export function toOcrResult(lines: readonly EngineLine[], minConfidence: number): OcrResult {
  const kept = lines
    .map((line) => ({ text: line.text.trim(), confidence: line.mean, top: corner(line, 'y'), left: corner(line, 'x'), height: heightOf(line) }))
    .filter((line) => line.text.length > 0 && Number.isFinite(line.confidence) && line.confidence >= minConfidence);
  const rows: Array<typeof kept> = [];
  for (const line of [...kept].sort((a, b) => a.top - b.top || a.left - b.left)) {
    const row = rows.at(-1);
    const anchor = row?.[0];
    if (row && anchor && line.top - anchor.top < Math.max(anchor.height, line.height) / 2) row.push(line);
    else rows.push([line]);
  }
  const out = rows
    .flatMap((row) => row.sort((a, b) => a.left - b.left))
    .map((line) => ({ text: line.text, confidence: Math.round(line.confidence * 10_000) / 10_000 }));
  return { text: out.map((line) => line.text).join('\n'), lines: out };
}

function corner(line: EngineLine, axis: 'x' | 'y'): number {
  const values = (line.box ?? []).map((point) => point[axis === 'x' ? 0 : 1] ?? 0);
  return values.length ? Math.min(...values) : 0;
}

function heightOf(line: EngineLine): number {
  const ys = (line.box ?? []).map((point) => point[1] ?? 0);
  return ys.length ? Math.max(...ys) - Math.min(...ys) : 0;
}
