import { graphIds } from '@memory/ports';
import { nothingFound, type Strategy } from './strategy.js';

/**
 * temporal_range: the query's time expressions as a date range over the event times resolved at ingestion (or the
 * creation time of memories that mention none). No similarity: memories in the range, the one nearest its middle
 * first, scored 1 at the middle down to 0.5 at its edges.
 */
export const temporalRange: Strategy = {
  name: 'temporal_range',
  async run({ deps, config, analysis }) {
    const range = analysis.timeRange;
    if (!range) return nothingFound({ timeRange: null });
    const { scope, limit, weights, depths } = config;
    const found = await deps.vectors.inTimeRange(scope, range, Math.max(limit * depths.listed.perLimit, depths.listed.floor), config.filter);
    const middle = (range.from + range.to) / 2;
    const halfWidth = Math.max(1, (range.to - range.from) / 2);
    const anchor = graphIds.user(scope);
    return {
      lists: [{ name: 'temporal_range', weight: weights.temporal_range, hits: found.map(({ id, time }) => ({ id, score: 1 - Math.min(1, Math.abs(time - middle) / halfWidth) / 2 })) }],
      anchors: new Map(found.map(({ id }) => [id, anchor])),
      notes: { timeRange: { from: new Date(range.from).toISOString(), to: new Date(range.to).toISOString(), text: range.text } },
    };
  },
};
