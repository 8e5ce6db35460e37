import type { RecipeName } from './recipes.js';
import type { StrategyName } from './strategies/names.js';

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
  recipe: RecipeName;
  strategies: StrategyName[];
  /** The mode of POST /v1/memories/search. */
  mode?: string;
  centroidMode?: 'META' | 'SPECIFIC';
  [detail: string]: unknown;
}

export interface SearchResponse {
  data: SearchHit[];
  routing: Routing;
}
