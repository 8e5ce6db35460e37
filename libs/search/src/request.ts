import type { Scope } from '@memory/ports';

/** The strategies a search can be forced to; omitted means automatic intent routing. */
export const STRATEGIES = ['direct_lookup', 'centroid_aware', 'entity_anchor', 'temporal_range'] as const;
export type Strategy = (typeof STRATEGIES)[number];

/** POST /v1/memories/search: factual (exact facts, dated records), conceptual (themes, practices), hybrid. */
export const SEARCH_MODES = ['factual', 'conceptual', 'hybrid'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

export const SEARCH_LIMITS = {
  defaultLimit: 5,
  maxLimit: 100,
  maxQueryChars: 2_000,
} as const;

export interface SearchRequest {
  scope: Scope;
  query: string;
  limit: number;
  useDynamicScoring: boolean;
  strategy: Strategy | null;
  /** Set by mode search; null for POST /v1/search. */
  mode?: SearchMode | null;
  /** Per result, each strategy's contribution, the fusion and the dynamic-scoring factors. */
  explain?: boolean;
  /** IANA zone the query's dates are read in ("yesterday" ends at the user's midnight); UTC by default. */
  timeZone?: string;
}

/** A memory as search returns it (the interface's Memory resource). */
export interface SearchHit {
  id: string;
  finalScore: number;
  payload: Record<string, unknown>;
  searchedWithNode: string;
  explain?: Record<string, unknown>;
}

/** Which strategies ran and what they decided: returned beside data so the routing is visible. */
export interface Routing {
  strategies: Strategy[];
  mode?: SearchMode;
  centroidMode?: 'META' | 'SPECIFIC';
  [detail: string]: unknown;
}

export interface SearchResponse {
  data: SearchHit[];
  routing: Routing;
}
