import type { BenchmarkQuestion } from '@memory/evaluation';
import type { BenchApi } from './api.js';
import { progress, type Print } from './progress.js';

export interface Askable {
  userId: string;
  questions: readonly BenchmarkQuestion[];
  /** jobId -> dia_id: how a search hit is traced back to its turn. */
  jobs: Readonly<Record<string, string>>;
}

export interface Answers {
  /** Per conversation, per question: the turns found, best first (null: a hit that is no turn of ours). */
  ranked: Array<Array<Array<string | null>>>;
  latenciesMs: number[];
  errors: number;
  /** Hits whose payload.job_id is none of ours: non-zero means the figures undercount, and why needs a look. */
  untraced: number;
  /** How many questions the semantic path answered in each centroid mode (routing.centroidMode; "none" when it did not run). */
  centroidModes: Record<string, number>;
}

/**
 * Asks every question of its conversation's end user, one at a time, so the latencies are the service's and not
 * the queue's. A failed search counts as finding nothing and is reported, rather than ending the run.
 */
export async function askQuestions(api: BenchApi, conversations: readonly Askable[], limit: number, useDynamicScoring: boolean | null, print: Print): Promise<Answers> {
  const total = conversations.reduce((n, c) => n + c.questions.length, 0);
  print(`asking ${total} questions (limit ${limit}, dynamic scoring ${useDynamicScoring === null ? 'service default' : useDynamicScoring ? 'on' : 'off'}) ...`);
  const asking = progress('asked', total, print, ' questions');
  const answers: Answers = { ranked: [], latenciesMs: [], errors: 0, untraced: 0, centroidModes: {} };
  let asked = 0;
  for (const conversation of conversations) {
    const ranked: Array<Array<string | null>> = [];
    for (const question of conversation.questions) {
      try {
        const { hits, ms, centroidMode } = await api.search(conversation.userId, question.question, limit, useDynamicScoring);
        answers.latenciesMs.push(ms);
        const mode = centroidMode ?? 'none';
        answers.centroidModes[mode] = (answers.centroidModes[mode] ?? 0) + 1;
        const turns = hits.map((hit) => (hit.jobId === null ? null : (conversation.jobs[hit.jobId] ?? null)));
        answers.untraced += turns.filter((turn) => turn === null).length;
        ranked.push(turns);
      } catch (error) {
        if (++answers.errors <= 5) print(`  search failed for "${question.question}": ${error instanceof Error ? error.message : String(error)}`);
        ranked.push([]);
      }
      asking.update(++asked);
    }
    answers.ranked.push(ranked);
  }
  asking.finish(asked);
  if (answers.errors > 5) print(`  ... ${answers.errors} searches failed in all`);
  return answers;
}
