export {
  parseLocomoConversation,
  conversationTurns,
  turnTimestamp,
  TURN_SPACING_SECONDS,
  type LocomoConversation,
  type LocomoSession,
  type LocomoTurn,
  type LocomoQuestion,
  type QuestionCategory,
} from './locomo.js';
export { listLocomoFiles, readLocomoFile, readLocomoDir, type LocomoFile } from './locomo-files.js';
export { parseSessionDateTime, sessionTimestamp } from './session-date.js';
export { turnMemoryText } from './turn-text.js';
export {
  benchmarkQuestions,
  RETRIEVAL_CATEGORIES,
  CATEGORY_NAMES,
  type RetrievalCategory,
  type BenchmarkQuestion,
  type QuestionSet,
} from './questions.js';
export { evidenceRecall, type EvidenceRecall } from './metrics.js';
export { recallByCategory, questionCounts, recallKey, CATEGORY_KEYS, type CategoryKey, type RankedQuestion, type RecallFigures } from './aggregate.js';
export { formatRecallTable, type RecallTableInput } from './table.js';
export { percentile } from './stats.js';
export { bm25Rankings, type RankableTurn } from './bm25-ranker.js';
export { embedAll, cosineTopK, type EmbedProgress } from './dense-ranker.js';
export { seededRandom } from './seeded-random.js';
export { sentenceGenerator, type SentenceGenerator } from './memory-sentences.js';
export { summarizeLatencies, type LatencySummary } from './latency.js';
export { formatPerformanceTable, type PerformanceRow } from './performance-table.js';
