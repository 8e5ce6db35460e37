import { EDGE, runService } from '@memory/composition';

await runService(EDGE);
