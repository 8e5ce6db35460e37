import type { MemoryFilter, Scope } from '@memory/ports';
import { objectOf, RequestError } from '@memory/platform';
import { parseSearchFilters } from './filters.js';
import { RECIPES, forcedRecipe, type Recipe, type RecipeName } from './recipes.js';
import { STRATEGY_NAMES, type StrategyName } from './strategies/names.js';

/** POST /v1/memories/search: factual (exact facts, dated records), conceptual (themes, practices), hybrid. */
export const SEARCH_MODES = ['factual', 'conceptual', 'hybrid'] as const satisfies readonly RecipeName[];
export type SearchMode = (typeof SEARCH_MODES)[number];

export const SEARCH_LIMITS = {
  defaultLimit: 5,
  maxLimit: 100,
  maxQueryChars: 2_000,
} as const;

/**
 * One search, validated: what to look for, for whom, and the recipe that says how (strategies, list weights,
 * candidate depths, fusion, rerankers). Built from a request by searchConfig; the flow in search.ts only reads it.
 */
export interface SearchConfig extends Recipe {
  scope: Scope;
  query: string;
  limit: number;
  /** Per result, each list's contribution, the fusion and every reranker's factor. */
  explain: boolean;
  /** IANA zone the query's dates are read in ("yesterday" ends at the user's midnight). */
  timeZone: string;
  /** Only memories passing it are found: every strategy hands it to the store queries it makes (see filters.ts). */
  filter?: MemoryFilter;
}

/** What the HTTP layer knows beside the body: whose memories, the zone of their dates, and the route's mode. */
export interface SearchContext {
  scope: Scope;
  timeZone?: string | null;
  /** POST /v1/memories/search requires a mode; POST /v1/search takes `strategy` instead. */
  route: 'search' | 'mode_search';
}

/**
 * The body of POST /v1/search or POST /v1/memories/search as a SearchConfig, or a 400 RequestError naming the field
 * and what to send instead.
 */
export function searchConfig(body: unknown, context: SearchContext): SearchConfig {
  const root = objectOf(body, 'body');
  const query = root['query'];
  if (typeof query !== 'string' || query.trim() === '') throw new RequestError(400, 'SEARCH.MISSING_QUERY', 'query must be a non-empty string');
  if (query.length > SEARCH_LIMITS.maxQueryChars) throw new RequestError(400, 'SEARCH.QUERY_TOO_LONG', `query has ${query.length} characters; the limit is ${SEARCH_LIMITS.maxQueryChars}`);
  const useDynamicScoring = root['useDynamicScoring'] ?? true;
  if (typeof useDynamicScoring !== 'boolean') throw new RequestError(400, 'SEARCH.INVALID_FIELD', 'useDynamicScoring must be true or false');
  const options = root['options'] === undefined ? {} : objectOf(root['options'], 'options');
  const explain = options['explain'] ?? false;
  if (typeof explain !== 'boolean') throw new RequestError(400, 'SEARCH.INVALID_FIELD', 'options.explain must be true or false');
  const recipe = context.route === 'mode_search' ? RECIPES[modeOf(root['mode'])] : strategyRecipe(root['strategy']);
  const filter = parseSearchFilters(root['filters']);
  return {
    ...recipe,
    rerankers: useDynamicScoring ? recipe.rerankers : recipe.rerankers.filter((name) => name !== 'dynamic_scoring'),
    scope: context.scope,
    query,
    limit: searchLimit(options),
    explain,
    timeZone: context.timeZone ?? 'UTC',
    ...(filter ? { filter } : {}),
  };
}

/** options.limit of any search (text or image): 1 to SEARCH_LIMITS.maxLimit, SEARCH_LIMITS.defaultLimit when absent. */
export function searchLimit(options: Record<string, unknown>): number {
  const limit = options['limit'] ?? SEARCH_LIMITS.defaultLimit;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > SEARCH_LIMITS.maxLimit) {
    throw new RequestError(400, 'SEARCH.INVALID_LIMIT', `options.limit must be a whole number from 1 to ${SEARCH_LIMITS.maxLimit}`);
  }
  return limit;
}

function modeOf(mode: unknown): SearchMode {
  if (mode === undefined || mode === null) throw new RequestError(400, 'SEARCH.MISSING_MODE', `mode is required: one of ${SEARCH_MODES.join(', ')}`, { allowed: [...SEARCH_MODES] });
  if (!(SEARCH_MODES as readonly unknown[]).includes(mode)) throw new RequestError(400, 'SEARCH.UNKNOWN_MODE', `mode must be one of ${SEARCH_MODES.join(', ')}`, { allowed: [...SEARCH_MODES] });
  return mode as SearchMode;
}

function strategyRecipe(strategy: unknown): Recipe {
  if (strategy === undefined || strategy === null) return RECIPES.automatic;
  if (!(STRATEGY_NAMES as readonly unknown[]).includes(strategy)) {
    throw new RequestError(400, 'SEARCH.UNKNOWN_STRATEGY', `strategy must be one of ${STRATEGY_NAMES.join(', ')}, or omitted for automatic routing`, { allowed: [...STRATEGY_NAMES] });
  }
  return forcedRecipe(strategy as StrategyName);
}
