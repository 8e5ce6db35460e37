import { join } from 'node:path';
import { EVENTS } from '@memory/contracts';
import { graphIds, type Scope } from '@memory/ports';
import { createEmbeddedEventLog } from '@memory/eventlog-embedded';
import { openEmbeddedVectorStores } from '@memory/vectors-embedded';
import { createEmbeddedGraphStore } from '@memory/graph-embedded';
import { createEmbeddedJobStore } from '@memory/jobs-embedded';

/**
 * Everything the stores hold for some end users, read with the real adapters while the service is stopped:
 * memories (with vectors), centroid and its members, graph neighbourhood and jobs.
 */
export async function snapshotStores(dataDir: string, scopes: Scope[], jobIds: string[]) {
  const { vectors, centroids } = await openEmbeddedVectorStores({ dir: join(dataDir, 'vectors') });
  const graph = await createEmbeddedGraphStore({ dir: join(dataDir, 'graph') });
  const jobs = await createEmbeddedJobStore({ dir: join(dataDir, 'jobs') });
  try {
    const users: Record<string, unknown> = {};
    for (const scope of scopes) {
      const ids = (await vectors.ids(scope)).sort();
      const memories = (await vectors.get(scope, ids)).map((m) => ({ ...m, vector: Array.from(m.vector) })).sort((a, b) => a.id.localeCompare(b.id));
      const centroid = await centroids.get(scope);
      const neighbours = (await graph.neighbours(scope, graphIds.user(scope), { depth: 2 })).map((n) => `${n.edge.from}-${n.edge.kind}->${n.edge.to}`).sort();
      users[`${scope.tenantId}/${scope.endUserId}`] = {
        ids,
        count: await vectors.count(scope),
        memories,
        centroid: centroid && { ...centroid, sum: Array.from(centroid.sum) },
        centroidMembers: Object.fromEntries(await centroids.members(scope, ids)),
        neighbours,
      };
    }
    const jobRecords: Record<string, unknown> = {};
    for (const jobId of jobIds) {
      const job = await jobs.get(scopes[0]!.tenantId, jobId);
      jobRecords[jobId] = job && { state: job.state, memoryIds: job.memoryIds, stage: job.stage };
    }
    return { users, jobs: jobRecords };
  } finally {
    await Promise.all([vectors.close(), centroids.close(), graph.close(), jobs.close()]);
  }
}

/** Moves every stage's consumer group back to the start of its input topics: the next start reprocesses the whole log. */
export async function resetAllGroupsToEarliest(dataDir: string): Promise<void> {
  const log = await createEmbeddedEventLog({ dir: join(dataDir, 'log') });
  try {
    const groups: Array<[string, string[]]> = [
      ['temporal-resolver', [EVENTS.ingestRequested.topic]],
      ['enricher', [EVENTS.resolved.topic]],
      ['dual-writer', [EVENTS.enriched.topic]],
      ['centroid-calibrator', [EVENTS.committed.topic]],
      ['job-tracker', [EVENTS.ingestRequested.topic, EVENTS.jobStatus.topic]],
    ];
    for (const [group, topics] of groups) for (const topic of topics) await log.resetOffsets(group, topic, { kind: 'earliest' });
  } finally {
    await log.close();
  }
}

/** How many records a topic holds over all partitions. */
export async function topicSize(dataDir: string, topic: string): Promise<number> {
  const log = await createEmbeddedEventLog({ dir: join(dataDir, 'log') });
  try {
    let size = 0;
    for (const p of await log.lag('size-probe', topic)) size += p.end;
    return size;
  } finally {
    await log.close();
  }
}
