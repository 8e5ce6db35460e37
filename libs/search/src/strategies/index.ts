import { centroidAware } from './centroid-aware.js';
import { directLookup } from './direct-lookup.js';
import { entityAnchor } from './entity-anchor.js';
import type { StrategyName } from './names.js';
import type { Strategy } from './strategy.js';
import { temporalRange } from './temporal-range.js';

/** The text strategies by name: what recipes and a forced `strategy` refer to. */
export const STRATEGIES: Readonly<Record<StrategyName, Strategy>> = {
  direct_lookup: directLookup,
  centroid_aware: centroidAware,
  entity_anchor: entityAnchor,
  temporal_range: temporalRange,
};

export { STRATEGY_NAMES, type StrategyName } from './names.js';
export type { SearchDeps, Strategy, StrategyResult, TextStrategyInput } from './strategy.js';
