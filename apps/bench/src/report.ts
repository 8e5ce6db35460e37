import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  describeAgreement,
  formatConversationTable,
  formatRecallTable,
  formatSessionRecallTable,
  headlineFigures,
  questionCounts,
  rankingAgreement,
  recallByCategory,
  sessionRecallByCategory,
  type BenchmarkQuestion,
  type CategoryKey,
  type HeadlineFigures,
  type RankedQuestion,
  type RankingAgreement,
  type RecallFigures,
} from '@memory/evaluation';

export interface SystemRankings {
  name: string;
  /** Per conversation, per question, as the questions are listed. */
  ranked: ReadonlyArray<ReadonlyArray<ReadonlyArray<string | null>>>;
}

export interface ConversationQuestions {
  name: string;
  questions: readonly BenchmarkQuestion[];
}

/** Session-level recall is read at these cut-offs, as Engram's LoCoMo benchmark reports it. */
const SESSION_KS = [5, 10];
/** The cut-off of the headline figures, and of the agreement between two services. */
const HEADLINE_K = 10;

export interface Report {
  /** Turn-level evidence recall, per system. */
  figures: Array<{ name: string; figures: RecallFigures }>;
  /** Session-level R@5 and R@10, per system. */
  session: Array<{ name: string; figures: RecallFigures }>;
  conversations: Array<{ name: string; questions: number; temporal: number }>;
  perConversation: Array<{ name: string; perConversation: HeadlineFigures[]; all: HeadlineFigures }>;
  /** How alike the first two systems ranked, when both are services (the embedded and the distributed mode). */
  agreement: { between: [string, string]; figures: RankingAgreement } | null;
  counts: Record<CategoryKey, number>;
  ks: readonly number[];
}

/** `services` are the service under its modes (compared with each other when there are two), then the baselines. */
export function buildReport(conversations: readonly ConversationQuestions[], services: readonly SystemRankings[], baselines: readonly SystemRankings[], ks: readonly number[]): Report {
  const systems = [...services, ...baselines];
  const answered = systems.map((system) =>
    conversations.map((c, i): RankedQuestion[] => c.questions.map((q, j) => ({ category: q.category, evidence: q.evidence, ranked: system.ranked[i]?.[j] ?? [] }))),
  );
  const [first, second] = services;
  return {
    figures: systems.map((system, s) => ({ name: system.name, figures: recallByCategory(answered[s]!.flat(), ks) })),
    session: systems.map((system, s) => ({ name: system.name, figures: sessionRecallByCategory(answered[s]!.flat(), SESSION_KS) })),
    conversations: conversations.map((c) => ({ name: c.name, questions: c.questions.length, temporal: c.questions.filter((q) => q.category === 2).length })),
    perConversation: systems.map((system, s) => ({ name: system.name, perConversation: answered[s]!.map(headlineFigures), all: headlineFigures(answered[s]!.flat()) })),
    agreement: first && second ? { between: [first.name, second.name], figures: rankingAgreement(answered[0]!.flat(), answered[1]!.flat(), HEADLINE_K) } : null,
    counts: questionCounts(conversations.flatMap((c) => c.questions)),
    ks,
  };
}

/** The report as printed: turn-level recall, session-level recall, the figures per conversation, the agreement. */
export function reportText(report: Report): string {
  const lines = [
    'evidence recall@k: any = some evidence turn in the top k, all = every evidence turn in the top k',
    formatRecallTable({ systems: report.figures, counts: report.counts, ks: report.ks }),
    '',
    `session-level recall, scored as Engram's LoCoMo benchmark scores it: the first 10 results mapped to their sessions`,
    `(in order, each once); R@k = some evidence session among the first k of them; all = categories 1-4 pooled`,
    formatSessionRecallTable({ systems: report.session, counts: report.counts, ks: SESSION_KS }),
    '',
    'per conversation (all = every question pooled, as above)',
    formatConversationTable({ conversations: report.conversations, systems: report.perConversation }),
  ];
  if (report.agreement) lines.push('', ...describeAgreement(report.agreement.between, report.agreement.figures));
  return lines.join('\n');
}

/**
 * {"system": {"1": {"any@10": ...}, ..., "all": {...}}, "bm25": {...}, "dense": {...}, "n": {"1": .., "all": ..},
 *  "session": {"system": {"1": {"R@5": .., "R@10": ..}, ...}, ...},
 *  "perConversation": {"conversations": [{"name", "questions", "temporal"}], "system": {"26": {"any@10": ..}, ..., "all": {..}}, ...},
 *  "agreement": {"between": ["system", "distributed"], "questions", "k", "sameTurns", ...} or null}
 */
export function writeReportJson(path: string, report: Report): void {
  const json = {
    ...Object.fromEntries(report.figures.map((f) => [f.name, f.figures])),
    n: report.counts,
    session: Object.fromEntries(report.session.map((s) => [s.name, s.figures])),
    perConversation: {
      conversations: report.conversations,
      ...Object.fromEntries(
        report.perConversation.map((s) => [s.name, { ...Object.fromEntries(report.conversations.map((c, i) => [c.name, s.perConversation[i]])), all: s.all }]),
      ),
    },
    agreement: report.agreement ? { between: report.agreement.between, ...report.agreement.figures } : null,
  };
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(json, null, 2) + '\n');
}
