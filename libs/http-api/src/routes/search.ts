import { performance } from 'node:perf_hooks';
import { Router, json, type Request, type Response } from 'express';
import { RequestError, serverTimingHeader, StepTimings, withStepTimings } from '@memory/platform';
import { searchByImage, searchConfig, searchMemories, type ImageSearchDeps, type SearchDeps } from '@memory/search';
import { REQUEST_LIMITS } from '../limits.js';
import { validateImageSearch, validateTimeZone } from '../validation.js';
import { requireJson, scopeOf } from './guards.js';

/** What the search routes read: text search always; search by image where the visual store and OCR are wired. */
export type SearchRouteDeps = SearchDeps & { images?: Omit<ImageSearchDeps, 'vectors' | 'embedder'> };

export function searchRoutes(deps: SearchRouteDeps): Router {
  const router = Router();
  // The body limit fits a base64 query image; a text query is held to its own limits by validation.
  router.post('/v1/search', requireJson, json({ limit: REQUEST_LIMITS.imageJsonBodyBytes }), async (req, res) => {
    const scope = scopeOf(req, res.locals['tenantId'] as string);
    if (req.body && typeof req.body === 'object' && 'queryImage' in req.body) {
      if (!deps.images) throw new RequestError(501, 'SEARCH.IMAGE_QUERY_UNAVAILABLE', 'search by image is not wired in this process; send a text query');
      const body = validateImageSearch(req.body);
      const images = { vectors: deps.vectors, embedder: deps.embedder, ...deps.images };
      await answerTimed(res, async () => ({ data: await searchByImage(images, { scope, ...body }) }));
      return;
    }
    await answerTimed(res, () => searchMemories(deps, searchConfig(req.body, { scope, timeZone: timeZoneOf(req), route: 'search' })));
  });
  // Mode search is /v1/search with the recipe named by the mode (see RECIPES); same Memory shape and options.
  router.post('/v1/memories/search', requireJson, json({ limit: REQUEST_LIMITS.jsonBodyBytes }), async (req, res) => {
    const scope = scopeOf(req, res.locals['tenantId'] as string);
    await answerTimed(res, () => searchMemories(deps, searchConfig(req.body, { scope, timeZone: timeZoneOf(req), route: 'mode_search' })));
  });
  return router;
}

/**
 * Answers with what `work` returns, and says in a Server-Timing header where its time went: each step the search
 * recorded (store and model calls, Elasticsearch requests with their count, fusion, reranking), the JSON
 * serialisation, and `search`, the whole. `npm run bench:breakdown` reads it; so does a browser's network panel.
 */
async function answerTimed(res: Response, work: () => Promise<unknown>): Promise<void> {
  const timings = new StepTimings();
  const answer = await withStepTimings(timings, work);
  const serialising = performance.now();
  const body = JSON.stringify(answer);
  timings.add('serialise', performance.now() - serialising);
  res.setHeader('server-timing', serverTimingHeader([...timings.list(), { step: 'search', count: 1, ms: timings.elapsed() }]));
  res.type('json').send(body);
}

/** Dates in a query ("yesterday") are read in the zone the user's memories were resolved in: the same header. */
function timeZoneOf(req: Request): string | null {
  return validateTimeZone(req.header('x-end-user-timezone'));
}
