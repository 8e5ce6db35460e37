import { EVENTS, type EventName } from '@memory/contracts';
import type { PartitionLag } from '@memory/metrics';
import type { EventLog } from '@memory/ports';

type Groups = ReadonlyArray<{ group: string; inputs: readonly EventName[] }>;

/** Unprocessed records of each consumer group on each partition of its input topics (the metrics' consumer lag). */
export async function partitionLag(log: EventLog, stages: Groups): Promise<PartitionLag[]> {
  const lags: PartitionLag[] = [];
  for (const stage of stages) {
    for (const input of stage.inputs) {
      const topic = EVENTS[input].topic;
      for (const partition of await log.lag(stage.group, topic)) lags.push({ group: stage.group, topic, partition: partition.partition, lag: Math.max(0, partition.end - partition.committed) });
    }
  }
  return lags;
}

/** Unprocessed records per consumer group, summed over its topics and partitions. */
export async function pipelineLag(log: EventLog, stages: Groups): Promise<Record<string, number>> {
  const lag: Record<string, number> = Object.fromEntries(stages.map((stage) => [stage.group, 0]));
  for (const { group, lag: behind } of await partitionLag(log, stages)) lag[group] = (lag[group] ?? 0) + behind;
  return lag;
}

/**
 * Named start-up checks ("model", "event log", ...): each is 'starting' until marked ok, and the process is ready
 * when all are ok. A failed start ends the process instead (startService throws), so no check is ever "failed".
 */
export class StartupChecks {
  private readonly checks: Record<string, string> = {};

  constructor(names: string[]) {
    for (const name of names) this.checks[name] = 'starting';
  }

  ok(name: string, detail?: string): void {
    this.checks[name] = detail ? `ok (${detail})` : 'ok';
  }

  get ready(): boolean {
    return Object.values(this.checks).every((state) => state.startsWith('ok'));
  }

  snapshot(): Record<string, string> {
    return { ...this.checks };
  }
}
