import { describeMemoryApiScenarios, underTest } from '@memory/testing';
import { memorydProcess } from './harness.js';

describeMemoryApiScenarios('memoryd over HTTP (embedded default)', underTest(memorydProcess()));
