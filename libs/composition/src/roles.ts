import type { Roles } from './service.js';
import { STAGE_NAMES, type StageName } from './stages.js';

/** The embedded default: every role in one process. */
export const MEMORYD: Roles = {
  name: 'memoryd',
  mode: 'embedded',
  http: { api: true, ingestion: true, jobs: true, search: 'local' },
  stages: STAGE_NAMES,
  reportLagOf: STAGE_NAMES,
};

/** The public port of the distributed mode: ingestion and jobs; searches are relayed to the search app. */
export const EDGE: Roles = {
  name: 'edge',
  mode: 'distributed',
  http: { api: true, ingestion: true, jobs: true, search: 'proxy' },
  stages: [],
  reportLagOf: STAGE_NAMES,
};

export const SEARCH: Roles = {
  name: 'search',
  mode: 'distributed',
  http: { api: true, ingestion: false, jobs: false, search: 'local' },
  stages: [],
  reportLagOf: [],
};

/** Runs the given consumer groups; its HTTP port serves only the health routes (for orchestrators). */
export function stageWorker(stages: StageName[]): Roles {
  return {
    name: stages.length === 1 ? stages[0]! : 'stage worker',
    mode: 'distributed',
    http: { api: false, ingestion: false, jobs: false, search: 'none' },
    stages,
    reportLagOf: stages,
  };
}
