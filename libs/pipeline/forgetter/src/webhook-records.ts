import type { JobStore, Scope, WebhookStore } from '@memory/ports';

/** What the webhook side keeps about an end user's jobs (ids and states, no content), as forgetting removes it. */
export interface WebhookRecords {
  /** The deliveries about the jobs an erasure at `before` covers; returns how many. */
  forgetUser(scope: Scope, before: number): Promise<number>;
  /** The deliveries about these jobs, and the dispatcher's records of them; returns how many deliveries. */
  forgetJobs(scope: Scope, jobIds: string[]): Promise<number>;
}

/**
 * The delivery log and the webhook dispatcher's own projection of jobs, whose record of a job can hold its failure's
 * reason (naming a file, as the job tracker's does). An erasure's projection is erased by the dispatcher itself, once
 * it sees the erasure completed.
 */
export function webhookRecordsOf(deliveries: Pick<WebhookStore, 'forgetUser' | 'forgetJobs'>, projection: Pick<JobStore, 'forget'>): WebhookRecords {
  return {
    forgetUser: (scope, before) => deliveries.forgetUser(scope, before),
    async forgetJobs(scope, jobIds) {
      if (jobIds.length === 0) return 0;
      await projection.forget(scope.tenantId, jobIds);
      return deliveries.forgetJobs(scope, jobIds);
    },
  };
}
