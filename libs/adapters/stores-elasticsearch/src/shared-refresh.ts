import type { Client } from '@elastic/elasticsearch';
import { call, type Family } from './errors.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Makes acknowledged writes searchable soon, without a refresh per request: one refresh of the index runs at a time,
 * and it serves every write acknowledged before it started. A caller that comes while one runs is served by the next,
 * which starts when the running one ends and not sooner than `minSpacingMs` after it started. A lone write is
 * visible one refresh after its acknowledgement (instead of waiting for the index's next scheduled refresh); under
 * load, refreshes run back to back at most 1000 / minSpacingMs times a second, each making many writes visible, so
 * the segments they cut stay few.
 */
export class SharedRefresh {
  private next: Promise<void> | null = null;
  private running: Promise<void> | null = null;
  private lastStartedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly refresh: () => Promise<unknown>,
    private readonly minSpacingMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  static forIndex(client: Client, family: Family, index: string, minSpacingMs: number): SharedRefresh {
    return new SharedRefresh(() => call(family, `refresh ${index}`, () => client.indices.refresh({ index })), minSpacingMs);
  }

  /** Resolves once a refresh that started after this call has ended; rejects with that refresh's error. */
  afterWrites(): Promise<void> {
    this.next ??= this.startNext();
    return this.next;
  }

  private async startNext(): Promise<void> {
    // The first await comes before anything else, so `next` is set before this refresh can start (and be left).
    await (this.running ?? Promise.resolve()).catch(() => undefined);
    const wait = this.lastStartedAt + this.minSpacingMs - this.now();
    if (wait > 0) await sleep(wait);
    // Writes acknowledged from here on may miss this refresh: their callers need the next one.
    this.next = null;
    this.lastStartedAt = this.now();
    const run = this.refresh().then(() => undefined);
    this.running = run;
    try {
      await run;
    } finally {
      if (this.running === run) this.running = null;
    }
  }
}
