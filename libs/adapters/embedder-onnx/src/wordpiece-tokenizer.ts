import { MemoryServiceError } from '@memory/platform';

/**
 * BERT WordPiece tokenisation as Hugging Face `tokenizers` does it for a tokenizer.json with a BertNormalizer,
 * a BertPreTokenizer and a WordPiece model. The rules follow that implementation (not the older Python BERT
 * code where the two differ, e.g. which characters count as control characters), because the model was
 * exported and evaluated with it.
 *
 * Special tokens written inside the input text (a literal "[SEP]") are deliberately NOT recognised: memories are
 * user content, and letting them inject structure tokens would only change their embedding for the worse.
 */

export interface WordPieceConfig {
  vocab: ReadonlyMap<string, number>;
  unkToken: string;
  clsToken: string;
  sepToken: string;
  continuingSubwordPrefix: string;
  maxInputCharsPerWord: number;
  normalizer: BertNormalizerOptions;
}

export interface BertNormalizerOptions {
  cleanText: boolean;
  handleChineseChars: boolean;
  stripAccents: boolean;
  lowercase: boolean;
}

export interface WordPieceTokenizer {
  /** Word pieces of the text, without [CLS]/[SEP]; stops early once `limit` pieces are produced. */
  tokenize(text: string, limit?: number): string[];
  /** Ids with [CLS] first and [SEP] last, truncated so the whole sequence has at most `maxTokens` ids. */
  encode(text: string, maxTokens?: number): number[];
  idOf(token: string): number | undefined;
}

/** BERT position embeddings stop at 512, so no sequence may be longer. */
export const MAX_SEQUENCE_TOKENS = 512;

const CONTROL_KEPT = new Set(['\t', '\n', '\r']);
const OTHER_CATEGORY = /\p{C}/u; // Cc, Cf, Cs, Co, Cn: what `tokenizers` strips as control characters
const WHITESPACE = /\p{White_Space}/u;
// ASCII symbols such as $ + < = > ^ ` | ~ are not Unicode punctuation, but BERT splits on them all the same.
const PUNCTUATION = /[!-\/:-@\[-`{-~]|\p{P}/u;
const NONSPACING_MARKS = /\p{Mn}/gu;

/** The CJK Unified Ideograph blocks that BERT isolates as single-character words; kana and hangul are not in them. */
function isCjkIdeograph(codePoint: number): boolean {
  return (
    (codePoint >= 0x4e00 && codePoint <= 0x9fff) ||
    (codePoint >= 0x3400 && codePoint <= 0x4dbf) ||
    (codePoint >= 0x20000 && codePoint <= 0x2a6df) ||
    (codePoint >= 0x2a700 && codePoint <= 0x2b73f) ||
    (codePoint >= 0x2b740 && codePoint <= 0x2b81f) ||
    (codePoint >= 0x2b920 && codePoint <= 0x2ceaf) ||
    (codePoint >= 0xf900 && codePoint <= 0xfaff) ||
    (codePoint >= 0x2f800 && codePoint <= 0x2fa1f)
  );
}

export function normalizeBertText(text: string, options: BertNormalizerOptions): string {
  let out = '';
  for (const ch of text) {
    const codePoint = ch.codePointAt(0) ?? 0;
    if (options.cleanText) {
      if (codePoint === 0 || codePoint === 0xfffd) continue;
      if (!CONTROL_KEPT.has(ch) && OTHER_CATEGORY.test(ch)) continue;
      if (WHITESPACE.test(ch)) {
        out += ' ';
        continue;
      }
    }
    out += options.handleChineseChars && isCjkIdeograph(codePoint) ? ` ${ch} ` : ch;
  }
  if (options.stripAccents) out = out.normalize('NFD').replace(NONSPACING_MARKS, '');
  // Per character, as `tokenizers` does: a whole-string toLowerCase would apply the Greek final-sigma rule.
  if (options.lowercase) out = Array.from(out, (ch) => ch.toLowerCase()).join('');
  return out;
}

/** Splits on whitespace and makes every punctuation character a word of its own. */
export function splitBertWords(text: string): string[] {
  const words: string[] = [];
  let current = '';
  for (const ch of text) {
    if (WHITESPACE.test(ch)) {
      if (current) words.push(current);
      current = '';
    } else if (PUNCTUATION.test(ch)) {
      if (current) words.push(current);
      words.push(ch);
      current = '';
    } else {
      current += ch;
    }
  }
  if (current) words.push(current);
  return words;
}

/** Greedy longest-match-first split of one word; a word with any unmatchable rest becomes a single unknown token. */
export function wordPieces(word: string, config: Pick<WordPieceConfig, 'vocab' | 'unkToken' | 'continuingSubwordPrefix' | 'maxInputCharsPerWord'>): string[] {
  const chars = Array.from(word);
  if (chars.length > config.maxInputCharsPerWord) return [config.unkToken];
  const pieces: string[] = [];
  let start = 0;
  while (start < chars.length) {
    let end = chars.length;
    let match: string | undefined;
    while (end > start) {
      const candidate = (start > 0 ? config.continuingSubwordPrefix : '') + chars.slice(start, end).join('');
      if (config.vocab.has(candidate)) {
        match = candidate;
        break;
      }
      end--;
    }
    if (match === undefined) return [config.unkToken];
    pieces.push(match);
    start = end;
  }
  return pieces;
}

export function createWordPieceTokenizer(config: WordPieceConfig): WordPieceTokenizer {
  const idOf = (token: string) => config.vocab.get(token);
  const required = (token: string) => {
    const id = idOf(token);
    if (id === undefined) throw new MemoryServiceError('EMBEDDER.TOKENIZER_INVALID', `tokenizer vocabulary has no ${token}`);
    return id;
  };
  const unkId = required(config.unkToken);
  const clsId = required(config.clsToken);
  const sepId = required(config.sepToken);

  const tokenize = (text: string, limit = Number.POSITIVE_INFINITY): string[] => {
    const tokens: string[] = [];
    for (const word of splitBertWords(normalizeBertText(text, config.normalizer))) {
      if (tokens.length >= limit) break;
      tokens.push(...wordPieces(word, config));
    }
    return tokens.length > limit ? tokens.slice(0, limit) : tokens;
  };

  return {
    tokenize,
    idOf,
    encode(text, maxTokens = MAX_SEQUENCE_TOKENS) {
      if (!Number.isInteger(maxTokens) || maxTokens < 2) throw new RangeError(`maxTokens must be an integer >= 2, got ${maxTokens}`);
      const ids = [clsId];
      for (const token of tokenize(text, maxTokens - 2)) ids.push(config.vocab.get(token) ?? unkId);
      ids.push(sepId);
      return ids;
    },
  };
}

/** Reads the parts of a Hugging Face tokenizer.json that a BERT WordPiece tokenizer needs, refusing other kinds. */
export function parseTokenizerJson(source: string | unknown): WordPieceTokenizer {
  const json = (typeof source === 'string' ? JSON.parse(source) : source) as TokenizerJson;
  const unsupported = (what: string) =>
    new MemoryServiceError('EMBEDDER.TOKENIZER_UNSUPPORTED', `tokenizer.json: ${what}; only BERT WordPiece tokenizers are supported`);
  const model = json?.model;
  if (model?.type !== 'WordPiece' || typeof model.vocab !== 'object' || model.vocab === null) throw unsupported(`model type is ${String(model?.type)}`);
  const normalizer = json.normalizer;
  if (normalizer && normalizer.type !== 'BertNormalizer') throw unsupported(`normalizer is ${normalizer.type}`);
  if (json.pre_tokenizer && json.pre_tokenizer.type !== 'BertPreTokenizer') throw unsupported(`pre-tokenizer is ${json.pre_tokenizer.type}`);

  const lowercase = normalizer?.lowercase ?? true;
  return createWordPieceTokenizer({
    vocab: new Map(Object.entries(model.vocab)),
    unkToken: model.unk_token ?? '[UNK]',
    clsToken: '[CLS]',
    sepToken: '[SEP]',
    continuingSubwordPrefix: model.continuing_subword_prefix ?? '##',
    maxInputCharsPerWord: model.max_input_chars_per_word ?? 100,
    normalizer: {
      cleanText: normalizer?.clean_text ?? true,
      handleChineseChars: normalizer?.handle_chinese_chars ?? true,
      // `null` means "follow lowercase", as in `tokenizers`.
      stripAccents: normalizer?.strip_accents ?? lowercase,
      lowercase,
    },
  });
}

interface TokenizerJson {
  model?: {
    type?: string;
    vocab?: Record<string, number>;
    unk_token?: string;
    continuing_subword_prefix?: string;
    max_input_chars_per_word?: number;
  };
  normalizer?: { type?: string; clean_text?: boolean; handle_chinese_chars?: boolean; strip_accents?: boolean | null; lowercase?: boolean } | null;
  pre_tokenizer?: { type?: string } | null;
}
