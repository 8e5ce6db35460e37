import type { Client } from '@elastic/elasticsearch';

/**
 * How long after a deletion the merge that expunges it is asked for. Elasticsearch keeps a deleted document in its
 * segment (a soft delete) while a retention lease may need it; the leases follow the global checkpoint at their
 * periodic sync (30 s), after which a merge can drop it; the delay leaves a margin past that (README, Forgetting).
 */
export const EXPUNGE_DELAY_MS = 70_000;

/** One expunging merge of an index, asked for EXPUNGE_DELAY_MS after the latest deletion; best effort. */
export class DelayedExpunge {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly client: Client,
    private readonly index: string,
    private readonly delayMs = EXPUNGE_DELAY_MS,
  ) {}

  schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.client.indices.forcemerge({ index: this.index, only_expunge_deletes: true }).catch(() => undefined);
    }, this.delayMs);
    this.timer.unref();
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
