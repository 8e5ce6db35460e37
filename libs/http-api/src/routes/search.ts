import { Router, json } from 'express';
import { RequestError } from '@memory/platform';
import { searchMemories, type SearchDeps } from '@memory/search';
import { REQUEST_LIMITS } from '../limits.js';
import { validateSearch } from '../validation.js';
import { requireJson, scopeOf } from './guards.js';

export function searchRoutes(deps: SearchDeps): Router {
  const router = Router();
  router.post('/v1/search', requireJson, json({ limit: REQUEST_LIMITS.jsonBodyBytes }), async (req, res) => {
    const scope = scopeOf(req, res.locals['tenantId'] as string);
    if (req.body && typeof req.body === 'object' && 'queryImage' in req.body) {
      throw new RequestError(501, 'SEARCH.IMAGE_QUERY_UNAVAILABLE', 'search by image is not available in this version yet; send a text query');
    }
    const body = validateSearch(req.body);
    const data = await searchMemories(deps, { scope, ...body });
    res.json({ data });
  });
  router.post('/v1/memories/search', () => {
    throw new RequestError(501, 'SEARCH.MODE_UNAVAILABLE', 'mode search is not available in this version yet; use POST /v1/search');
  });
  return router;
}
