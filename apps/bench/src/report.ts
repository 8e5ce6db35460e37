import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { formatRecallTable, questionCounts, recallByCategory, type BenchmarkQuestion, type CategoryKey, type RecallFigures } from '@memory/evaluation';

export interface SystemRankings {
  name: string;
  /** Per conversation, per question, as the questions are listed. */
  ranked: ReadonlyArray<ReadonlyArray<ReadonlyArray<string | null>>>;
}

export interface Report {
  figures: Array<{ name: string; figures: RecallFigures }>;
  counts: Record<CategoryKey, number>;
  ks: readonly number[];
}

export function buildReport(questions: ReadonlyArray<readonly BenchmarkQuestion[]>, systems: readonly SystemRankings[], ks: readonly number[]): Report {
  const all = questions.flat();
  return {
    figures: systems.map((system) => ({
      name: system.name,
      figures: recallByCategory(
        questions.flatMap((qs, c) => qs.map((q, i) => ({ category: q.category, evidence: q.evidence, ranked: system.ranked[c]?.[i] ?? [] }))),
        ks,
      ),
    })),
    counts: questionCounts(all),
    ks,
  };
}

export function reportTable(report: Report): string {
  return formatRecallTable({ systems: report.figures, counts: report.counts, ks: report.ks });
}

/** {"system": {"1": {"any@10": ...}, ..., "all": {...}}, "bm25": {...}, "dense": {...}, "n": {"1": .., "all": ..}} */
export function writeReportJson(path: string, report: Report): void {
  const json = { ...Object.fromEntries(report.figures.map((f) => [f.name, f.figures])), n: report.counts };
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(json, null, 2) + '\n');
}
