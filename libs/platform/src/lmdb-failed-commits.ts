/** The part of an lmdb-js environment (RootDatabase) that handleFailedCommits needs. */
export interface CommitEvents {
  on(event: 'beforecommit', callback: () => void): void;
  readonly committed: PromiseLike<unknown>;
}

const ignore = (): void => {};

/** A failed commit's cause, in the `commitError` promise of each of its writes' errors (kriszyp/lmdb-js#368). */
function handleCause(error: unknown): void {
  const cause = (error as { commitError?: unknown } | null)?.commitError;
  if (cause instanceof Promise) cause.catch(ignore);
}

/**
 * Call on every lmdb-js environment as it is opened. lmdb-js 3.5.6 leaves two promises of a failed commit without a
 * handler, and an unhandled rejection ends the process: the commit promise of the instruction that opens each event
 * turn's batch of writes (write.js drops what `writeBatchStart()` returns), and the promise of the commit's cause,
 * which every write of that commit carries as `commitError`. lmdb-js runs `beforecommit` listeners just before it
 * queues that instruction; the microtask queued here runs right after it, when `committed` is that very promise, and
 * handles it and the cause. Only handlers are added: each caller's own write still rejects, and maps the failure.
 */
export function handleFailedCommits<E extends CommitEvents>(env: E): E {
  env.on('beforecommit', () => queueMicrotask(() => env.committed.then(ignore, handleCause)));
  return env;
}
