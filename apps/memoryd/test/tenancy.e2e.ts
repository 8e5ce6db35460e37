import { describeTenancyScenarios, TEST_DOCUMENT_MAX_BYTES, underTest } from '@memory/testing';
import { memorydProcess } from './harness.js';

describeTenancyScenarios('tenancy under random operations (embedded default)', underTest(memorydProcess({ MEMORY_MAX_DOCUMENT_BYTES: String(TEST_DOCUMENT_MAX_BYTES) })));
