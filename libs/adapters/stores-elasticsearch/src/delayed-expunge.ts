import type { Client, estypes } from '@elastic/elasticsearch';

/**
 * How long after a deletion the merge that expunges it is asked for. Elasticsearch keeps a deleted document in its
 * segment (a soft delete) while a retention lease may need it; the leases follow the global checkpoint at their
 * periodic sync (30 s), after which a merge can drop it; the delay leaves a margin past that (README, Forgetting).
 */
export const EXPUNGE_DELAY_MS = 70_000;

/**
 * The merge policy of an index whose deleted documents must leave its files: an expunging merge rewrites every
 * segment that holds one. Elasticsearch's default (10 %) skips a segment whose deletes are under a tenth of its
 * documents, which left one forgotten memory in a large segment on disk until some later merge happened to take it.
 */
export const EXPUNGE_EVERY_DELETION: estypes.IndicesIndexSettings = { 'merge.policy.expunge_deletes_allowed': 0 };

/**
 * Expunging merges of an index, each asked for EXPUNGE_DELAY_MS after a deletion it must cover; best effort. At most
 * one is pending: deletions while it waits are covered by one more, a delay after it fires, so steady deletions
 * still get a merge every delay (a deletion is expunged within two delays) rather than postponing it forever.
 */
export class DelayedExpunge {
  private timer: NodeJS.Timeout | null = null;
  private deletedWhilePending = false;

  constructor(
    private readonly client: Pick<Client, 'indices'>,
    private readonly index: string,
    private readonly delayMs = EXPUNGE_DELAY_MS,
  ) {}

  /** Called after each deletion. */
  schedule(): void {
    if (this.timer) this.deletedWhilePending = true;
    else this.start();
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.deletedWhilePending = false;
  }

  private start(): void {
    this.deletedWhilePending = false;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.client.indices.forcemerge({ index: this.index, only_expunge_deletes: true }).catch(() => undefined);
      if (this.deletedWhilePending) this.start();
    }, this.delayMs);
    this.timer.unref();
  }
}
