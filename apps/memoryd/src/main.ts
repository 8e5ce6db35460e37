import { MEMORYD, runService } from '@memory/composition';

await runService(MEMORYD);
