import { describeImageScenarios } from '@memory/testing';
import { memorydProcess } from './harness.js';

const service = memorydProcess();
describeImageScenarios('image memories (embedded default)', {
  get url() {
    return service.url;
  },
  start: () => service.start(),
  stop: async () => {
    await service.stop();
    service.cleanup();
  },
});
