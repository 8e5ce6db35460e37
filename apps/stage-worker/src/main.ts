import { parseStageList, runService, stageWorker } from '@memory/composition';

// `stage-worker enricher dual-writer`, or MEMORY_STAGES=enricher,dual-writer; all stages when neither is given.
const requested = process.argv.slice(2).join(',') || process.env['MEMORY_STAGES'] || '';
let stages;
try {
  stages = parseStageList(requested);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(2);
}
await runService(stageWorker(stages));
