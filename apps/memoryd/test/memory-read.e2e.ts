import { describeMemoryReadScenarios, underTest } from '@memory/testing';
import { memorydProcess } from './harness.js';

describeMemoryReadScenarios('reading memories back and metadata (embedded default)', underTest(memorydProcess()));
