import type { JobRecord } from '@memory/ports';

/** How often a long poll reads the job: soon at first (most jobs end within tens of ms), then at most every maxMs. */
export const JOB_POLL = { firstMs: 20, factor: 1.5, maxMs: 250 } as const;

/** Completed, Failed, or gone (forgotten): nothing more will happen to it. */
export const settled = (job: JobRecord | null) => job === null || job.state === 'Completed' || job.state === 'Failed';

/**
 * The job once it is Completed or Failed, or as it is when `waitMs` has passed or the client has gone (`signal`).
 * It reads the job store rather than waiting for an in-process event, so it works the same wherever the job tracker
 * runs (the distributed mode's tracker is another process).
 */
export async function jobWhenSettled(read: () => Promise<JobRecord | null>, waitMs: number, signal: AbortSignal, now: () => number = Date.now): Promise<JobRecord | null> {
  const deadline = now() + waitMs;
  let job = await read();
  for (let delay: number = JOB_POLL.firstMs; !settled(job) && !signal.aborted; delay = Math.min(JOB_POLL.maxMs, delay * JOB_POLL.factor)) {
    const left = deadline - now();
    if (left <= 0) break;
    await pause(Math.min(delay, left), signal);
    job = await read();
  }
  return job;
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
