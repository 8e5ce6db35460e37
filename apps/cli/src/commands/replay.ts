import { createLogger } from '@memory/platform';
import { EVENTS } from '@memory/contracts';
import { isStageName, openInfrastructure, readServiceConfig, stageGroups, pipelineLag, type ServiceMode, type StageName } from '@memory/composition';
import type { OffsetPosition } from '@memory/ports';

/** Which stage writes each store: rebuilding a store is replaying that stage's consumer group from the start. */
export const STORE_WRITERS: Record<string, StageName> = {
  vectors: 'dual-writer',
  visual: 'dual-writer',
  graph: 'dual-writer',
  centroids: 'centroid-calibrator',
  jobs: 'job-tracker',
};

/** "earliest", "latest", an offset ("1200") or a time (ISO 8601, "2026-11-20T00:00:00Z"). */
export function parsePosition(text: string): OffsetPosition {
  if (text === 'earliest' || text === 'latest') return { kind: text };
  if (/^\d+$/.test(text)) return { kind: 'offset', offset: Number(text) };
  const timestamp = Date.parse(text);
  if (Number.isNaN(timestamp)) throw new Error(`"${text}" is not earliest, latest, an offset or an ISO 8601 time`);
  return { kind: 'timestamp', timestamp };
}

function describe(position: OffsetPosition): string {
  switch (position.kind) {
    case 'offset':
      return `offset ${position.offset}`;
    case 'timestamp':
      return new Date(position.timestamp).toISOString();
    default:
      return position.kind;
  }
}

/**
 * Moves a consumer group (a stage name, or any group with --topic) to a position on each of its input topics.
 * The group must be stopped: its next start reads from there.
 */
export async function resetGroup(mode: ServiceMode, env: Record<string, string | undefined>, group: string, position: OffsetPosition, topic: string | undefined, print: (line: string) => void) {
  const [stage] = isStageName(group) ? await stageGroups([group]) : [];
  const topics = topic ? [topic] : stage ? stage.inputs.map((input) => EVENTS[input].topic) : [];
  if (topics.length === 0) throw new Error(`"${group}" is not a stage; name its topic with --topic`);
  const groupId = stage ? stage.group : group;
  const infra = openInfrastructure(readServiceConfig(env, mode), createLogger({ app: 'cli' }));
  try {
    const { log } = await infra.eventBus();
    for (const name of topics) {
      await log.resetOffsets(groupId, name, position);
      print(`${groupId} on ${name}: moved to ${describe(position)}`);
    }
    if (position.kind !== 'earliest') {
      print('Records between the old position and the new one that the group had not processed are skipped: the jobs they belong to do not end (GET /v1/jobs shows them Processing). Move a group forward only past records you mean to drop.');
    }
  } finally {
    await infra.close();
  }
}

/** Rebuilds a store by replaying the stage that writes it from the earliest record; writes are idempotent upserts. */
export async function rebuildStore(mode: ServiceMode, env: Record<string, string | undefined>, store: string, print: (line: string) => void) {
  const stage = STORE_WRITERS[store];
  if (!stage) throw new Error(`unknown store "${store}"; the stores are ${Object.keys(STORE_WRITERS).join(', ')}`);
  await resetGroup(mode, env, stage, { kind: 'earliest' }, undefined, print);
  print(`Start ${stage} (or the whole service) and it rewrites the ${store} store from the log; the readiness endpoint's lag shows progress.`);
}

export async function showLag(mode: ServiceMode, env: Record<string, string | undefined>, print: (line: string) => void) {
  const infra = openInfrastructure(readServiceConfig(env, mode), createLogger({ app: 'cli' }));
  try {
    const { log } = await infra.eventBus();
    for (const [group, behind] of Object.entries(await pipelineLag(log, await stageGroups()))) print(`${group.padEnd(22)} ${behind} records behind`);
  } finally {
    await infra.close();
  }
}
