import { Router } from 'express';
import type { VectorStore } from '@memory/ports';
import { toPayload } from '@memory/search';
import { encodeCursor, validateListRequest } from '../list-request.js';
import { memoryNotFound } from '../updating.js';
import { validateId } from '../validation.js';
import { scopeOf } from './guards.js';

/** Paths the read routes answer, GET only: what the edge relays to the search app in the distributed mode. */
export const MEMORY_READ_PATHS = ['/v1/memories', '/v1/memories/:id', '/v1/memories/:id/history'] as const;

/**
 * Reading memories back: one by id, or the end user's memories newest first, a page at a time. Each memory has the
 * shape of a search result without its score, built by the same payload function. A memory of another end user or
 * tenant is a 404 with the same body as one that never existed.
 */
export function memoryReadRoutes(vectors: VectorStore): Router {
  const router = Router();
  router.get('/v1/memories', async (req, res) => {
    const scope = scopeOf(req, res.locals['tenantId'] as string);
    const query = validateListRequest(req.query as Record<string, unknown>);
    // One more than asked says whether another page exists, so the last page has no cursor.
    const found = await vectors.list(scope, { ...query, limit: query.limit + 1 });
    const page = found.slice(0, query.limit);
    const last = page[page.length - 1];
    res.json({
      data: page.map((memory) => ({ id: memory.id, payload: toPayload(memory) })),
      nextCursor: found.length > query.limit && last ? encodeCursor(last) : null,
    });
  });
  router.get('/v1/memories/:id', async (req, res) => {
    const scope = scopeOf(req, res.locals['tenantId'] as string);
    const id = validateId(req.params['id'], 'id');
    const [memory] = await vectors.getWithoutVectors(scope, [id]);
    if (!memory) throw memoryNotFound(id);
    res.json({ id: memory.id, payload: toPayload(memory) });
  });
  router.get('/v1/memories/:id/history', async (req, res) => {
    const scope = scopeOf(req, res.locals['tenantId'] as string);
    const id = validateId(req.params['id'], 'id');
    const versions = await vectors.history(scope, id);
    if (!versions) throw memoryNotFound(id);
    res.json({ data: versions.map(({ version, content, changedAt, cause }) => ({ version, content, changedAt, cause })) });
  });
  return router;
}
