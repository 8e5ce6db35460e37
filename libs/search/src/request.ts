import type { Scope } from '@memory/ports';

/** The strategies a search can be forced to; omitted means automatic intent routing. */
export const STRATEGIES = ['direct_lookup', 'centroid_aware', 'entity_anchor', 'temporal_range'] as const;
export type Strategy = (typeof STRATEGIES)[number];

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
}

/** A memory as search returns it (the interface's Memory resource). */
export interface SearchHit {
  id: string;
  finalScore: number;
  payload: Record<string, unknown>;
  searchedWithNode: string;
}
