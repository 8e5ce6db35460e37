export { call, readMetric, sleep, type DrillApi, type Reply } from './client.js';
export { countOutcome, NO_ANSWER, type Counts, type JobView, type MemoryKind, type Sent, type StoredMemory } from './outcome.js';
export { DRILL_ENGINES, probeSearches, runOutage, type DrillEngine, type EngineControl, type OutageOptions, type PhaseResult } from './outage.js';
export { KILL_TARGETS, planTrials, runCrash, type CrashOptions, type KillTarget, type ProcessControl, type TrialPlan } from './crash.js';
export { formatWindow, JOIN_TARGETS, joinWindows, judgeJoin, runJoin, type JoinControl, type JoinMarks, type JoinOptions, type JoinResult, type JoinTarget, type JoinWindow } from './join.js';
export { memoryText, kindOf, sendAtRate, type DrillFiles } from './traffic.js';
export { DRAIN_LIMIT_S, judgeCrash, judgeOutage, passed, SEARCH_ANSWER_LIMIT_MS, type Criterion, type OutageSearch } from './verdict.js';
export { formatReport } from './report.js';
