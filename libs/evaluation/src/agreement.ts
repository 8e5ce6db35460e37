import { evidenceRecall } from './metrics.js';
import type { RankedQuestion } from './aggregate.js';

/** How often two systems judged alike on the same questions: both hit, only the first, only the second, neither. */
export interface HitAgreement {
  both: number;
  firstOnly: number;
  secondOnly: number;
  neither: number;
}

/** How alike two systems ranked the same questions at k. */
export interface RankingAgreement {
  questions: number;
  k: number;
  /** The same turns in the top k, in any order. */
  sameTurns: number;
  /** The same turns in the same order. */
  sameOrder: number;
  /** Mean over questions of the share of the larger top k that the other top k holds too (1 when both are empty). */
  meanOverlap: number | null;
  any: HitAgreement;
  all: HitAgreement;
}

/**
 * Compares two systems' answers to the same questions, listed in the same order. A result that is no turn (null)
 * matches nothing, so untraced results count as differences.
 */
export function rankingAgreement(first: readonly RankedQuestion[], second: readonly RankedQuestion[], k: number): RankingAgreement {
  if (first.length !== second.length) throw new RangeError(`the two systems answered ${first.length} and ${second.length} questions: they must answer the same ones`);
  const agreement: RankingAgreement = { questions: first.length, k, sameTurns: 0, sameOrder: 0, meanOverlap: null, any: emptyHits(), all: emptyHits() };
  let overlapSum = 0;
  first.forEach((a, i) => {
    const b = second[i]!;
    const topA = a.ranked.slice(0, k);
    const topB = b.ranked.slice(0, k);
    const turnsB = new Set(topB.filter((id) => id !== null));
    const shared = new Set(topA.filter((id) => id !== null && turnsB.has(id))).size;
    const larger = Math.max(topA.length, topB.length);
    overlapSum += larger === 0 ? 1 : shared / larger;
    if (shared === topA.length && shared === topB.length) agreement.sameTurns++;
    if (topA.length === topB.length && topA.every((id, j) => id !== null && id === topB[j])) agreement.sameOrder++;
    const recallA = evidenceRecall(a.ranked, a.evidence, k);
    const recallB = evidenceRecall(b.ranked, a.evidence, k);
    count(agreement.any, recallA.any, recallB.any);
    count(agreement.all, recallA.all, recallB.all);
  });
  agreement.meanOverlap = first.length === 0 ? null : overlapSum / first.length;
  return agreement;
}

function emptyHits(): HitAgreement {
  return { both: 0, firstOnly: 0, secondOnly: 0, neither: 0 };
}

function count(hits: HitAgreement, a: boolean, b: boolean): void {
  if (a && b) hits.both++;
  else if (a) hits.firstOnly++;
  else if (b) hits.secondOnly++;
  else hits.neither++;
}

/** One line per comparison, for a report: e.g. "same turns in the top 10: 700 of 760 (same order 650), ...". */
export function describeAgreement(names: readonly [string, string], agreement: RankingAgreement): string[] {
  const { questions: n, k } = agreement;
  const alike = (hits: HitAgreement) => hits.both + hits.neither;
  const split = (hits: HitAgreement) => `${names[0]} only ${hits.firstOnly}, ${names[1]} only ${hits.secondOnly}`;
  return [
    `${names[0]} vs ${names[1]}, ${n} questions, top ${k}:`,
    `  same turns ${agreement.sameTurns} of ${n} (in the same order ${agreement.sameOrder}); mean overlap ${agreement.meanOverlap === null ? '-' : agreement.meanOverlap.toFixed(3)}`,
    `  any@${k} the same on ${alike(agreement.any)} of ${n} (${split(agreement.any)})`,
    `  all@${k} the same on ${alike(agreement.all)} of ${n} (${split(agreement.all)})`,
  ];
}
