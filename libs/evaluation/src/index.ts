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
export {
  recallByCategory,
  sessionRecallByCategory,
  shareByCategory,
  questionCounts,
  recallKey,
  sessionRecallKey,
  CATEGORY_KEYS,
  type CategoryKey,
  type QuestionMeasure,
  type RankedQuestion,
  type RecallFigures,
} from './aggregate.js';
export { sessionRecall, rankedSessions, sessionOfTurn, SESSION_RECALL_HITS } from './session-recall.js';
export { headlineFigures, HEADLINE_MEASURES, type HeadlineFigures, type HeadlineMeasure } from './headline.js';
export { rankingAgreement, describeAgreement, type RankingAgreement, type HitAgreement } from './agreement.js';
export { formatRecallTable, formatSessionRecallTable, formatConversationTable, type RecallTableInput, type ConversationTableInput } from './table.js';
export { percentile } from './stats.js';
export { bm25Rankings, type RankableTurn } from './bm25-ranker.js';
export { embedAll, cosineTopK, type EmbedProgress } from './dense-ranker.js';
export { sentenceGenerator, type SentenceGenerator } from './memory-sentences.js';
export { summarizeLatencies, type LatencySummary } from './latency.js';
export { formatComparisonTable, formatPerformanceTable, type PerformanceRow } from './performance-table.js';
export { summariseBreakdown, searchSample, ingestSample, formatBreakdownTable, type BreakdownSample, type StepSummary } from './breakdown.js';
