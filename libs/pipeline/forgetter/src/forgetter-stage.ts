import { FailedAfter, progress, type StageSpec } from '@memory/pipeline-runtime';
import { forget, type ForgetDeps } from './forget.js';

/**
 * Carries out forget requests (DELETE of a memory, a job's memories or an end user) on every store, one at a time
 * in log order, and completes each request's job with its receipt.
 */
export const forgetterStage: StageSpec<'forgetRequested', ForgetDeps> = {
  name: 'forgetter',
  group: 'forgetter',
  inputs: ['forgetRequested'],
  outputs: ['jobStatus'],
  async process(batch, deps) {
    const outputs = [];
    for (const { value } of batch) {
      try {
        const receipt = await forget(value, deps);
        outputs.push([progress('forgetter', value, { state: 'Completed', receipt })]);
      } catch (error) {
        // A request destroys its keys first, so even the one that failed may have destroyed some: they must not stay
        // readable in the key store until a later batch succeeds. The request's failure is what the runner must see:
        // a scrub that fails here is done by the next one (the embedded store stays marked until a compaction works).
        await deps.keys.scrub().catch(() => {});
        // The requests before this one are carried out; forgetting them again would find nothing, and their
        // receipts would count zeros: they are completed now, and the batch goes on from this one.
        throw outputs.length === 0 ? error : new FailedAfter(outputs, error);
      }
    }
    // One rewrite of the key store for the batch, before any of its jobs says Completed.
    await deps.keys.scrub();
    return outputs;
  },
};
