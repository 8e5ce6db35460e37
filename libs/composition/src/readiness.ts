import { EVENTS, type EventName } from '@memory/contracts';
import type { EventLog } from '@memory/ports';

/** Unprocessed records per consumer group, summed over its topics and partitions. */
export async function pipelineLag(log: EventLog, stages: ReadonlyArray<{ group: string; inputs: readonly EventName[] }>): Promise<Record<string, number>> {
  const lag: Record<string, number> = {};
  for (const stage of stages) {
    let behind = 0;
    for (const input of stage.inputs) {
      for (const partition of await log.lag(stage.group, EVENTS[input].topic)) behind += Math.max(0, partition.end - partition.committed);
    }
    lag[stage.group] = behind;
  }
  return lag;
}

/**
 * Named start-up checks ("model", "event log", ...): each is 'starting' until marked ok or failed, and the
 * process is ready when all are ok.
 */
export class StartupChecks {
  private readonly checks: Record<string, string> = {};

  constructor(names: string[]) {
    for (const name of names) this.checks[name] = 'starting';
  }

  ok(name: string, detail?: string): void {
    this.checks[name] = detail ? `ok (${detail})` : 'ok';
  }

  failed(name: string, error: unknown): void {
    this.checks[name] = `failed: ${error instanceof Error ? error.message : String(error)}`;
  }

  get ready(): boolean {
    return Object.values(this.checks).every((state) => state.startsWith('ok'));
  }

  snapshot(): Record<string, string> {
    return { ...this.checks };
  }
}
