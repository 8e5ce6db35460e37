import { SEARCH, runService } from '@memory/composition';

await runService(SEARCH);
