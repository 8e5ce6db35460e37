import { describeImageScenarios, underTest } from '@memory/testing';
import { memorydProcess } from './harness.js';

describeImageScenarios('image memories (embedded default)', underTest(memorydProcess()));
