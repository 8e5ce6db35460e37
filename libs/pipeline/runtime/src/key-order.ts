import type { LogRecord } from '@memory/ports';

/** Records of one batch that go to the stage together, once every earlier part holding one of their keys is done. */
interface Part {
  records: LogRecord[];
  /** The earlier parts holding a key of this one that were not done when this one was made. */
  after: Part[];
  state: 'waiting' | 'running' | 'done' | 'failed';
  error?: unknown;
  done: Promise<void>;
  settle(error?: unknown): void;
}

/**
 * Keeps each key's records in log order while several batches of a partition are in hand at once (the log's
 * batchesInFlight). A batch is split in two parts: the records of keys no earlier part still holds go to the stage
 * at once; the others wait for the earlier parts holding their keys. Parts that wait are queued, and every part
 * that becomes ready at the same moment goes to the stage in one call, in log order: the records of a busy key that
 * arrived in several small batches while its earlier batch ran are handled together, as the next batch would have
 * held them with one batch at a time, so the stage's calls still batch across records. When a part fails, the parts
 * waiting for it fail without running (the log delivers their batches again after it), but only once every earlier
 * part they wait for has settled: until then they keep holding their keys, so a key that an earlier part is still
 * running is never let go early, and a later batch of that key waits behind it (and fails with it) rather than
 * running beside the earlier part or before the failed records are delivered again.
 */
export class KeyOrder {
  private readonly holding = new Map<string, Part>();
  private readonly queue: Part[] = [];

  constructor(private readonly run: (records: LogRecord[]) => Promise<void>) {}

  /** Handles one batch; resolves when all its records are handled, rejects with the first failure of its parts. */
  async handle(records: LogRecord[]): Promise<void> {
    const after = new Set<Part>();
    const free: LogRecord[] = [];
    const waiting: LogRecord[] = [];
    for (const record of records) {
      const holder = this.holding.get(record.key);
      if (holder) after.add(holder);
      (holder ? waiting : free).push(record);
    }
    const parts: Part[] = [];
    if (free.length > 0) parts.push(this.part(free, []));
    if (waiting.length > 0) parts.push(this.part(waiting, [...after]));
    for (const part of parts) for (const { key } of part.records) this.holding.set(key, part);
    for (const part of parts) {
      if (part.after.length === 0) this.start([part]);
      else this.queue.push(part);
    }
    const failure = (await Promise.allSettled(parts.map((part) => part.done))).find((result) => result.status === 'rejected');
    if (failure) throw failure.reason;
  }

  private part(records: LogRecord[], after: Part[]): Part {
    let resolve!: () => void;
    let reject!: (error: unknown) => void;
    const done = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
    const part: Part = {
      records, after, state: 'waiting', done,
      settle: (error) => {
        part.state = error === undefined ? 'done' : 'failed';
        part.error = error;
        for (const { key } of records) if (this.holding.get(key) === part) this.holding.delete(key);
        if (error === undefined) resolve();
        else reject(error);
      },
    };
    return part;
  }

  private start(parts: Part[]): void {
    for (const part of parts) part.state = 'running';
    Promise.resolve().then(() => this.run(parts.flatMap((part) => part.records))).then(
      () => this.finish(parts),
      (error: unknown) => this.finish(parts, error ?? new Error('the stage failed')),
    );
  }

  private finish(parts: Part[], error?: unknown): void {
    for (const part of parts) part.settle(error);
    this.next();
  }

  /**
   * Starts, in one call, every queued part whose earlier parts are done or start with it; fails those behind a
   * failure once none of their earlier parts is still waiting or running (failing sooner would let go of a key one
   * of those still holds: settle releases every key the part holds).
   */
  private next(): void {
    const ready: Part[] = [];
    for (const part of [...this.queue]) {
      const failed = part.after.find((earlier) => earlier.state === 'failed');
      if (failed) {
        if (part.after.some((earlier) => earlier.state === 'waiting' || earlier.state === 'running')) continue;
        this.queue.splice(this.queue.indexOf(part), 1);
        part.settle(failed.error);
      } else if (part.after.every((earlier) => earlier.state === 'done' || ready.includes(earlier))) {
        this.queue.splice(this.queue.indexOf(part), 1);
        ready.push(part);
      }
    }
    if (ready.length > 0) this.start(ready);
  }
}
