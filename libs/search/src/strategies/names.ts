/** The text strategies a search can run, and be forced to (`strategy` of POST /v1/search). */
export const STRATEGY_NAMES = ['direct_lookup', 'centroid_aware', 'entity_anchor', 'temporal_range'] as const;
export type StrategyName = (typeof STRATEGY_NAMES)[number];
