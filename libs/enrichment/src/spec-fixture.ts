import { createEnricher } from './enricher.js';
import type { Enricher } from './types.js';

let shared: Promise<Enricher> | null = null;
let loadMs = 0;

/** One real WordNet load for all spec files of a mocha run; the load time is reported once. */
export function sharedEnricher(): Promise<Enricher> {
  if (!shared) {
    const started = performance.now();
    shared = createEnricher().then((enricher) => {
      loadMs = performance.now() - started;
      console.log(`      [enrichment] WordNet loaded in ${loadMs.toFixed(0)} ms`);
      return enricher;
    });
  }
  return shared;
}
