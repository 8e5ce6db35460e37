import { conversationTurns, type LocomoConversation, type QuestionCategory } from './locomo.js';

/** The categories whose evidence is in the conversation; 5 (adversarial) asks about things never said. */
export const RETRIEVAL_CATEGORIES = [1, 2, 3, 4] as const satisfies readonly QuestionCategory[];
export type RetrievalCategory = (typeof RETRIEVAL_CATEGORIES)[number];

export const CATEGORY_NAMES: Record<RetrievalCategory, string> = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' };

export interface BenchmarkQuestion {
  /** Position in the file's qa list, to find it again. */
  index: number;
  question: string;
  category: RetrievalCategory;
  /** dia_ids of turns that exist, each once. */
  evidence: string[];
}

export interface QuestionSet {
  questions: BenchmarkQuestion[];
  /** Questions of categories 1-4 left out because none of their evidence names a turn of the conversation. */
  skipped: Array<{ index: number; question: string; evidence: string[] }>;
  /** Evidence ids naming no turn (typos in the dataset, e.g. "D:11:26"), dropped from their question. */
  droppedEvidence: Array<{ index: number; id: string }>;
  /** Category 5 questions, not asked. */
  adversarial: number;
}

/**
 * The questions a retrieval benchmark can score. A few evidence entries in the release hold two ids in one string
 * ("D8:6; D9:17"); they are split, since both name real turns. Ids that still name no turn are dropped, and a
 * question left with no evidence cannot be scored, so it is skipped rather than counted as a miss.
 */
export function benchmarkQuestions(conversation: LocomoConversation): QuestionSet {
  const turnIds = new Set(conversationTurns(conversation).map((turn) => turn.diaId));
  const set: QuestionSet = { questions: [], skipped: [], droppedEvidence: [], adversarial: 0 };
  conversation.questions.forEach((q, index) => {
    if (q.category === 5) {
      set.adversarial++;
      return;
    }
    const evidence: string[] = [];
    for (const id of q.evidence.flatMap(splitEvidence)) {
      if (!turnIds.has(id)) set.droppedEvidence.push({ index, id });
      else if (!evidence.includes(id)) evidence.push(id);
    }
    if (evidence.length === 0) set.skipped.push({ index, question: q.question, evidence: q.evidence });
    else set.questions.push({ index, question: q.question, category: q.category, evidence });
  });
  return set;
}

function splitEvidence(entry: string): string[] {
  return entry.split(/[;,\s]+/).filter(Boolean);
}
