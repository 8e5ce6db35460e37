import { fileURLToPath } from 'node:url';
import { describeSdkScenarios, underTest, WEBHOOK_TEST_ENV } from '@memory/testing';
import { memorydProcess } from './harness.js';

describeSdkScenarios('the TypeScript SDK (@memory/sdk) against memoryd (embedded default)', underTest(memorydProcess(WEBHOOK_TEST_ENV)), {
  packFrom: fileURLToPath(new URL('../../..', import.meta.url)),
});
