/** How much of each scenario a run does; the two scales of `npm run bench -- --scale`. */
export interface PerfPlan {
  /** Keep-alive connections tried for edge_accept_rps; the best is reported. */
  edgeConnections: number[];
  edgeSeconds: number;
  /** Texts for embed_raw_per_s. */
  embedTexts: number;
  /**
   * Memories sent as fast as accepted for pipeline_per_s: enough for a sustained load. At 1,000 (11 s) the service's
   * first seconds (JIT, lazily loaded word lists, the accept burst on the same cores) cost it 7 % against a run
   * that had processed 100 memories before (0.83/0.81 vs 0.88/0.89 of embed_raw_per_s, two runs each).
   */
  pipelineMemories: number;
  freshnessSeconds: number;
  /** Memories held by the one search user at each search_ms step. */
  searchSizes: number[];
  searchQueries: number;
  searchClients: number[];
  /** Pages of 100 listed, and memories read by id, at each search_ms step (read_ms). */
  readRequests: number;
  /** Memories forgotten one at a time for forget_visible_ms. */
  forgetMemories: number;
  /** How long the overload scenario sends at five times the sustainable rate. */
  overloadSeconds: number;
  /** The store shared by 10 users, each holding this many memories (the search user is one of them). */
  sharedUsers: { users: number; each: number };
  seed: number;
}

export const PERF_SCALES = ['quick', 'small', 'full'] as const;
export type PerfScale = (typeof PERF_SCALES)[number];

export const PERF_PLANS: Record<PerfScale, PerfPlan> = {
  // Every scenario once at 1k memories: a check of a change on both modes in minutes, not a figure to publish.
  quick: {
    edgeConnections: [64],
    edgeSeconds: 5,
    embedTexts: 200,
    pipelineMemories: 500,
    freshnessSeconds: 10,
    searchSizes: [1000],
    searchQueries: 100,
    searchClients: [1],
    readRequests: 100,
    forgetMemories: 50,
    overloadSeconds: 15,
    sharedUsers: { users: 2, each: 1000 },
    seed: 20_260_601,
  },
  small: {
    edgeConnections: [16, 64, 256],
    edgeSeconds: 8,
    embedTexts: 600,
    pipelineMemories: 3000,
    freshnessSeconds: 20,
    searchSizes: [1000, 10_000],
    searchQueries: 200,
    searchClients: [1, 8],
    readRequests: 300,
    forgetMemories: 100,
    overloadSeconds: 60,
    sharedUsers: { users: 10, each: 1000 },
    seed: 20_260_601,
  },
  full: {
    edgeConnections: [16, 64, 256],
    edgeSeconds: 15,
    embedTexts: 1000,
    pipelineMemories: 5000,
    freshnessSeconds: 60,
    searchSizes: [1000, 10_000, 100_000],
    searchQueries: 500,
    searchClients: [1, 8],
    readRequests: 500,
    forgetMemories: 300,
    overloadSeconds: 60,
    sharedUsers: { users: 10, each: 10_000 },
    seed: 20_260_601,
  },
};
