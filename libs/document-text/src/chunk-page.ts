import { invalidOption } from './errors.js';
import type { ChunkOptions } from './types.js';

export const DEFAULT_CHUNK_CHARS = 1200;
export const DEFAULT_OVERLAP_CHARS = 150;

/** Strength of a place to cut; a chunk ends at the strongest one that still leaves it at least half full. */
const Level = { Word: 0, Line: 1, Sentence: 2, Paragraph: 3 } as const;
type Level = (typeof Level)[keyof typeof Level];

interface Boundary {
  /** Where the text before the boundary ends (exclusive). */
  end: number;
  /** Where the text after it starts. */
  next: number;
  level: Level;
}

const sentences = new Intl.Segmenter('en', { granularity: 'sentence' });

/**
 * Splits a page's text into chunks of at most `maxChars` UTF-16 code units for embedding. A chunk ends at a
 * paragraph break if one leaves it at least half full, else at a sentence end, a line end, a space, and only for a
 * single word longer than `maxChars` in the middle of it. Each chunk after the first repeats up to `overlapChars`
 * of the previous one's end, starting at a sentence, line or word, so a thought cut in two is still found whole in one.
 * Chunks are exact slices of the trimmed text; a blank page gives none, a short page one.
 */
export function chunkPage(text: string, options: ChunkOptions = {}): string[] {
  const maxChars = options.maxChars ?? DEFAULT_CHUNK_CHARS;
  const overlapChars = options.overlapChars ?? DEFAULT_OVERLAP_CHARS;
  if (!Number.isInteger(maxChars) || maxChars < 2) throw invalidOption('maxChars', maxChars, 'an integer of at least 2');
  // Below half a chunk, every chunk is guaranteed to move forward past the previous one.
  if (!Number.isInteger(overlapChars) || overlapChars < 0 || overlapChars * 2 >= maxChars) {
    throw invalidOption('overlapChars', overlapChars, `an integer from 0 to less than half of maxChars (${maxChars})`);
  }

  const page = text.trim();
  if (page === '') return [];
  if (page.length <= maxChars) return [page];

  const boundaries = findBoundaries(page);
  const chunks: string[] = [];
  let start = 0;
  let floor = 0;
  for (;;) {
    if (page.length - start <= maxChars) {
      chunks.push(page.slice(start));
      return chunks;
    }
    const end = cutPoint(page, boundaries, start, Math.max(start, floor), maxChars);
    chunks.push(page.slice(start, end));
    start = overlapStart(page, boundaries, end, start, overlapChars);
    floor = end;
  }
}

function findBoundaries(page: string): Boundary[] {
  const byNext = new Map<number, Boundary>();
  for (const match of page.matchAll(/\s+/g)) {
    const newlines = match[0].split('\n').length - 1;
    const level = newlines >= 2 ? Level.Paragraph : newlines === 1 ? Level.Line : Level.Word;
    const next = match.index + match[0].length;
    byNext.set(next, { end: match.index, next, level });
  }
  // Lines inside a paragraph are layout, not sentence ends: hide them from the segmenter (same length, so the
  // offsets still match the page).
  const flat = page.replace(/\n/g, ' ');
  for (const { index } of sentences.segment(flat)) {
    const boundary = byNext.get(index);
    if (boundary && boundary.level < Level.Sentence) boundary.level = Level.Sentence;
  }
  return [...byNext.values()].sort((a, b) => a.end - b.end);
}

/** The end of the chunk that starts at `start`; always beyond `floor`, the end of the previous chunk. */
function cutPoint(page: string, boundaries: Boundary[], start: number, floor: number, maxChars: number): number {
  const limit = start + maxChars;
  const halfFull = start + Math.ceil(maxChars / 2);
  let best: Boundary | undefined;
  for (const boundary of boundaries) {
    if (boundary.end > limit) break;
    if (boundary.end <= floor) continue;
    const counts = boundary.level === Level.Word || boundary.end >= halfFull;
    if (counts && (best === undefined || boundary.level >= best.level)) best = boundary;
  }
  if (best) return best.end;
  // One word longer than a chunk: cut it, but never between the two halves of a surrogate pair.
  const code = page.charCodeAt(limit - 1);
  return code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit;
}

/**
 * Where the next chunk starts: within the overlap window, the earliest sentence start, else line start, else word
 * start; a paragraph start counts as a sentence start.
 */
function overlapStart(page: string, boundaries: Boundary[], cut: number, start: number, overlapChars: number): number {
  const earliest = Math.max(cut - overlapChars, start + 1);
  const rank = (boundary: Boundary): number => Math.min(boundary.level, Level.Sentence);
  let best: Boundary | undefined;
  for (const boundary of boundaries) {
    if (boundary.next < earliest) continue;
    if (boundary.next >= cut) break;
    if (best === undefined || rank(boundary) > rank(best)) best = boundary;
  }
  return best?.next ?? skipSpace(page, cut);
}

/** Without overlap the next chunk starts at the next non-space; after a cut inside a word, right at the cut. */
function skipSpace(page: string, index: number): number {
  let i = index;
  while (i < page.length && /\s/.test(page[i] ?? '')) i++;
  return i;
}
