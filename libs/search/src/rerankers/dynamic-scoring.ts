import type { MemoryRecord } from '@memory/ports';

/**
 * Fusion-layer re-ranking by recency and authority:
 *
 *   finalScore = relevance × (1 − wRecency − wAuthority + wRecency × recency + wAuthority × authority)
 *
 * recency = 2^(−age / halfLife), age from when the memory was recorded to now (never negative);
 * authority = how much the memory can be trusted as a statement of the user: text the user wrote 1.0,
 * a document page 0.8, an image 0.7 (its text is inferred by analysis), times the share of its sentences that
 * state something rather than ask (see statementShare): "What gave you the idea?" tells nothing about anything,
 * and a line that asks is far less often the evidence for a fact than one that states.
 * With both factors at 1 the score is the relevance; at worst it loses wRecency + wAuthority of it, so dynamic
 * scoring re-orders close results and never buries a clearly better match.
 */
export const DYNAMIC_SCORING_DEFAULTS = {
  recencyWeight: 0.15,
  authorityWeight: 0.1,
  halfLifeMs: 30 * 24 * 3600 * 1000,
} as const;

const AUTHORITY_BY_KIND: Record<string, number> = { text: 1, document: 0.8, image: 0.7 };

export interface ScoreFactors {
  relevance: number;
  recency: number;
  authority: number;
  finalScore: number;
}

export function recencyOf(createdAt: number, now: number, halfLifeMs: number = DYNAMIC_SCORING_DEFAULTS.halfLifeMs): number {
  const age = Math.max(0, now - createdAt);
  return 2 ** (-age / halfLifeMs);
}

export function authorityOf(memory: Pick<MemoryRecord, 'kind' | 'originalContent'>): number {
  return (AUTHORITY_BY_KIND[memory.kind] ?? 0.5) * statementShare(memory.originalContent);
}

/**
 * The share of the text's sentences that state rather than ask (those not ending in "?"); a bracketed caption is
 * not a sentence, and a text with no sentence counts as stating.
 */
export function statementShare(text: string): number {
  const sentences = text.replace(/\[[^\]]*\]/g, ' ').split(/(?<=[.!?])\s+/).map((s) => s.trim()).filter((s) => /[\p{L}\p{N}]/u.test(s));
  if (sentences.length === 0) return 1;
  const questions = sentences.filter((s) => s.endsWith('?')).length;
  return 1 - questions / sentences.length;
}

export function dynamicScore(relevance: number, memory: Pick<MemoryRecord, 'kind' | 'createdAt' | 'originalContent'>, now: number, weights = DYNAMIC_SCORING_DEFAULTS): ScoreFactors {
  const recency = recencyOf(memory.createdAt, now, weights.halfLifeMs);
  const authority = authorityOf(memory);
  const factor = 1 - weights.recencyWeight - weights.authorityWeight + weights.recencyWeight * recency + weights.authorityWeight * authority;
  return { relevance, recency, authority, finalScore: clamp01(relevance * factor) };
}

export function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}
