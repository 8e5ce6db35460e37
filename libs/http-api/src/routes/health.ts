import { Router } from 'express';
import { retryAfterHeader } from '../error-handler.js';

export interface Readiness {
  ready: boolean;
  checks: Record<string, string>;
  /** Records each consumer group still has to process, by group: 0 everywhere means the pipeline is drained. */
  lag: Record<string, number>;
}

/** Liveness says the process serves HTTP; readiness says the model, the log and the stages are up, and how far behind they are. */
export function healthRoutes(readiness: () => Promise<Readiness>): Router {
  const router = Router();
  router.get('/health/live', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/health/ready', async (_req, res) => {
    const state = await readiness();
    const status = state.ready ? 200 : 503;
    const headers = retryAfterHeader(status);
    if (headers) res.set(headers);
    res.status(status).json({ status: state.ready ? 'ready' : 'starting', checks: state.checks, lag: state.lag });
  });
  return router;
}
