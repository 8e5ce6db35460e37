import { describeForgetScenarios, underTest } from '@memory/testing';
import { memorydProcess } from './harness.js';

describeForgetScenarios('forgetting, on memoryd (embedded default)', underTest(memorydProcess()));
