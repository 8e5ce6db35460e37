import { describeIdempotencyScenarios, TEST_DOCUMENT_MAX_BYTES, underTest } from '@memory/testing';
import { memorydProcess } from './harness.js';

const memoryd = memorydProcess({ MEMORY_MAX_DOCUMENT_BYTES: String(TEST_DOCUMENT_MAX_BYTES) });
// A restart keeps the data dir: stop and start the same process.
const restart = async () => {
  await memoryd.stop();
  await memoryd.start();
};
describeIdempotencyScenarios('Idempotency-Key (embedded default)', Object.assign(underTest(memoryd), { restart }));
