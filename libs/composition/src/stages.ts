import type { Consumer } from '@memory/ports';
import { runStage, type RunnerDeps } from '@memory/pipeline-runtime';
import { webhookSchedule } from './webhooks.js';
import type { Infrastructure } from './infrastructure.js';

/**
 * Every consumer group of the pipeline, in flow order, with what it needs from the infrastructure. A process
 * runs any subset: memoryd runs them all, a stage worker of the distributed mode runs the ones it is told to.
 * Each stage's library is imported when it is asked for, so a stage worker loads its own stage and no other.
 */
export const PIPELINE_STAGES = {
  'temporal-resolver': { spec: async () => (await import('@memory/stage-temporal-resolver')).temporalResolverStage, deps: async (_: Infrastructure) => ({}) },
  enricher: {
    spec: async () => (await import('@memory/stage-enricher')).enricherStage,
    deps: async (infra: Infrastructure) => ({
      enricher: await infra.enricher(),
      embedder: await infra.embedder(),
      images: { blobs: await infra.blobs(), files: await infra.files() },
    }),
  },
  'dual-writer': {
    spec: async () => (await import('@memory/stage-dual-writer')).dualWriterStage,
    deps: async (infra: Infrastructure) => ({ vectors: await infra.vectors(), graph: await infra.graph(), visualVectors: await infra.visualVectors(), keys: await infra.keyring() }),
  },
  'centroid-calibrator': {
    spec: async () => (await import('@memory/stage-centroid-calibrator')).centroidCalibratorStage,
    deps: async (infra: Infrastructure) => ({ centroids: await infra.centroids(), vectors: await infra.vectors(), keys: await infra.keyring() }),
  },
  'job-tracker': { spec: async () => (await import('@memory/stage-job-tracker')).jobTrackerStage, deps: async (infra: Infrastructure) => ({ jobs: await infra.jobs(), keys: await infra.keyring() }) },
  forgetter: {
    spec: async () => (await import('@memory/stage-forgetter')).forgetterStage,
    deps: async (infra: Infrastructure) => ({
      vectors: await infra.vectors(),
      visualVectors: await infra.visualVectors(),
      graph: await infra.graph(),
      centroids: await infra.centroids(),
      blobs: await infra.blobs(),
      jobs: await infra.jobs(),
      keys: await infra.keyring(),
      idempotency: await infra.idempotency(),
      webhooks: (await import('@memory/stage-forgetter')).webhookRecordsOf(await infra.webhooks(), await infra.webhookJobs()),
    }),
  },
  'webhook-dispatcher': {
    spec: async () => (await import('@memory/stage-webhook-dispatcher')).webhookDispatcherStage,
    deps: async (infra: Infrastructure) => {
      // The process that turns jobs into deliveries also sends them.
      await infra.webhookDeliverer();
      return { jobs: await infra.webhookJobs(), webhooks: await infra.webhooks(), keys: await infra.keyring(), schedule: webhookSchedule(infra.config) };
    },
  },
} as const;

export type StageName = keyof typeof PIPELINE_STAGES;
export const STAGE_NAMES = Object.keys(PIPELINE_STAGES) as StageName[];

export function isStageName(name: string): name is StageName {
  return Object.hasOwn(PIPELINE_STAGES, name);
}

/** The consumer group and input events of each stage, for lag reports and offset moves. */
export async function stageGroups(names: readonly StageName[] = STAGE_NAMES) {
  return Promise.all(
    names.map(async (name) => {
      const { group, inputs } = await PIPELINE_STAGES[name].spec();
      return { group, inputs };
    }),
  );
}

/** Starts the named stages as consumer groups on the infrastructure's event log. */
export async function startStages(infra: Infrastructure, names: readonly StageName[]): Promise<Consumer[]> {
  const { log, codec } = await infra.eventBus();
  const runner: RunnerDeps = { log, codec, logger: infra.logger, maxBatchSize: infra.config.embedBatch };
  return Promise.all(
    names.map(async (name) => {
      const stage = PIPELINE_STAGES[name];
      // Each entry pairs a spec with its own deps; TypeScript cannot follow that pairing through the union.
      return runStage((await stage.spec()) as never, (await stage.deps(infra)) as never, runner);
    }),
  );
}

/**
 * The stages each worker process of start-distributed runs: one each, or the enricher alone and the stages that do
 * not embed together (MEMORY_STAGE_WORKERS=shared).
 */
export function stageWorkerGroups(workers: 'each' | 'shared'): StageName[][] {
  if (workers === 'each') return STAGE_NAMES.map((stage) => [stage]);
  return [['enricher'], STAGE_NAMES.filter((stage) => stage !== 'enricher')];
}

/** The name start-distributed gives a worker in its output (`[name] ...` lines): its stage, or `stages` for several. */
export function stageWorkerName(stages: readonly string[]): string {
  return stages.length === 1 ? stages[0]! : 'stages';
}

/** "enricher, dual-writer" -> the stage names; empty means all. Unknown names fail with the list of known ones. */
export function parseStageList(list: string): StageName[] {
  const names = list.split(',').map((name) => name.trim()).filter(Boolean);
  if (names.length === 0) return STAGE_NAMES;
  const unknown = names.filter((name) => !isStageName(name));
  if (unknown.length) throw new Error(`unknown stage ${unknown.join(', ')}; the stages are ${STAGE_NAMES.join(', ')}`);
  return [...new Set(names)] as StageName[];
}
