import { createRequire } from 'node:module';
import type { SentimentLabel } from './types.js';

interface AfinnResult {
  score: number;
  tokens: string[];
  /** One `{ word: score }` object per scored word, negation already applied. */
  calculation: Record<string, number>[];
}
interface AfinnAnalyzer {
  analyze(text: string): AfinnResult;
}

// sentiment ships CommonJS without typings; require keeps the typing local instead of an ambient module declaration.
const require = createRequire(import.meta.url);
const Sentiment = require('sentiment') as new () => AfinnAnalyzer;
const analyzer = new Sentiment();

/** |AFINN weight| from which a word counts as strong when deciding 'mixed' ("love" 3, "hate" -3, "fine" 2). */
const STRONG = 2;
/** Below this squashed magnitude the text is neutral: one mild word in a long page says little. */
const NEUTRAL_BAND = 0.05;
/** Comparative scores of plain sentences sit around ±0.1..0.6; this spreads them over most of -1..1. */
const SQUASH = 2;

export interface SentimentResult {
  label: SentimentLabel;
  score: number;
}

/**
 * AFINN-165 through the sentiment package. `ignore` holds lowercase words that are names of things rather than
 * feelings here (the title "Hereditary", the genre "crime drama") and must not move the score.
 */
export function scoreSentiment(text: string, ignore: ReadonlySet<string>): SentimentResult {
  const result = analyzer.analyze(text);
  let total = 0;
  let strongPositive = false;
  let strongNegative = false;
  for (const entry of result.calculation) {
    for (const [word, weight] of Object.entries(entry)) {
      if (ignore.has(word)) continue;
      total += weight;
      if (weight >= STRONG) strongPositive = true;
      if (weight <= -STRONG) strongNegative = true;
    }
  }
  const comparative = result.tokens.length > 0 ? total / result.tokens.length : 0;
  const score = Math.round(Math.tanh(comparative * SQUASH) * 1000) / 1000;
  if (strongPositive && strongNegative) return { label: 'mixed', score };
  if (score >= NEUTRAL_BAND) return { label: 'positive', score };
  if (score <= -NEUTRAL_BAND) return { label: 'negative', score };
  return { label: 'neutral', score: score === 0 ? 0 : score };
}
