import { describeUpdateScenarios, underTest } from '@memory/testing';
import { memorydProcess } from './harness.js';

describeUpdateScenarios('correcting memories and their history, on memoryd (embedded default)', underTest(memorydProcess()));
