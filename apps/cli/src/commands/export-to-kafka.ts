import { createLogger } from '@memory/platform';
import { EVENTS, subjectOf } from '@memory/contracts';
import { openInfrastructure, readServiceConfig, STAGE_NAMES, stageGroups, type StageName } from '@memory/composition';
import type { DataKeyStore, EventLog, KeyRequest } from '@memory/ports';
import { reframe } from '../reframe.js';

/**
 * Stages whose outputs are themselves in the log: after an export their work is done, so their groups keep the
 * embedded log's committed offsets. The others write stores (vectors, graph, centroids, jobs) that are empty on a
 * new cluster, so their groups start from the earliest record and rebuild them.
 */
const STAGES_KEEPING_OFFSETS: StageName[] = ['temporal-resolver', 'enricher'];
const BATCH = 500;

/**
 * Copies the embedded log (MEMORY_DATA_DIR) into Kafka, topic by topic and partition by partition, with the same
 * keys and headers, writer schemas registered in the target registry and each record's schema id rewritten. The
 * target topics must be empty: offsets then match one to one, which keeps consumer positions meaningful.
 */
export async function exportToKafka(env: Record<string, string | undefined>, print: (line: string) => void): Promise<void> {
  const logger = createLogger({ app: 'cli' });
  const source = openInfrastructure(readServiceConfig(env, 'embedded'), logger);
  const target = openInfrastructure(readServiceConfig(env, 'distributed'), logger);
  try {
    const [from, to] = [await source.eventBus(), await target.eventBus()];
    // The data keys first: the sealed records copied next are readable only with them.
    await copyKeys(await source.keys(), await target.keys(), print);
    const [fromRegistry, toRegistry] = [await source.schemaRegistry(), await target.schemaRegistry()];
    const idMap = new Map<number, number>();
    for (const { topic } of Object.values(EVENTS)) {
      await copyTopic(topic, from.log, to.log, async (sourceId) => {
        let targetId = idMap.get(sourceId);
        if (targetId === undefined) {
          targetId = await toRegistry.register(subjectOf(topic), await fromRegistry.schemaById(sourceId));
          idMap.set(sourceId, targetId);
        }
        return targetId;
      }, print);
    }
    const groups = await stageGroups(STAGE_NAMES);
    for (const [index, stage] of STAGE_NAMES.entries()) {
      const { group, inputs } = groups[index]!;
      for (const input of inputs) {
        const topic = EVENTS[input].topic;
        if (!STAGES_KEEPING_OFFSETS.includes(stage)) {
          await to.log.resetOffsets(group, topic, { kind: 'earliest' });
          print(`group ${group} on ${topic}: from the earliest record (rebuilds its store)`);
          continue;
        }
        const committed: number[] = [];
        for (const lag of await from.log.lag(group, topic)) {
          committed[lag.partition] = lag.committed;
        }
        await to.log.resetOffsets(group, topic, { kind: 'offsets', byPartition: committed });
        print(`group ${group} on ${topic}: committed offsets copied`);
      }
    }
    print('Export complete. Start the distributed mode (npm run start:distributed) to rebuild the stores from the log.');
  } finally {
    await Promise.allSettled([source.close(), target.close()]);
  }
}

async function copyKeys(from: DataKeyStore, to: DataKeyStore, print: (line: string) => void) {
  let copied = 0;
  let batch: KeyRequest[] = [];
  const flush = async () => {
    const stored = await to.create(batch);
    batch.forEach(({ scope, keyId, key }, i) => {
      if (!stored[i]?.equals(key)) throw new Error(`data key ${keyId} of ${scope.tenantId}/${scope.endUserId} exists with another value (or is forgotten) in the target; export into a fresh deployment`);
    });
    copied += batch.length;
    batch = [];
  };
  for await (const entry of from.entries()) {
    batch.push(entry);
    if (batch.length === BATCH) await flush();
  }
  if (batch.length > 0) await flush();
  print(`data keys: ${copied} copied`);
}

async function copyTopic(topic: string, from: EventLog, to: EventLog, targetIdOf: (sourceId: number) => Promise<number>, print: (line: string) => void) {
  const partitions = await from.partitionsOf(topic);
  const targetPartitions = await to.partitionsOf(topic);
  if (targetPartitions !== partitions) throw new Error(`${topic} has ${partitions} partitions here but ${targetPartitions} in Kafka; create it with ${partitions}`);
  let copied = 0;
  for (let partition = 0; partition < partitions; partition++) {
    if ((await to.read(topic, partition, 0, 1)).length > 0) throw new Error(`${topic}[${partition}] in Kafka is not empty; export into fresh topics`);
    for (let offset = 0; ; ) {
      const records = await from.read(topic, partition, offset, BATCH);
      if (records.length === 0) break;
      const outgoing = [];
      for (const record of records) outgoing.push({ key: record.key, headers: record.headers, value: await reframe(record.value, targetIdOf) });
      const results = await to.append(topic, outgoing);
      results.forEach((result, i) => {
        const original = records[i]!;
        if (result.partition !== original.partition || result.offset !== original.offset) {
          throw new Error(`${topic}: record ${original.partition}/${original.offset} landed at ${result.partition}/${result.offset}; the partitioners differ`);
        }
      });
      offset = records[records.length - 1]!.offset + 1;
      copied += records.length;
    }
  }
  print(`${topic}: ${copied} records copied`);
}
