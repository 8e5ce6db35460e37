import { describeMetricsScenarios } from '@memory/testing';
import { memorydProcess } from './harness.js';

/** GET /metrics and request ids on memoryd, every stage in one process, its log lines captured (debug: one per record). */
describe('memoryd metrics', function () {
  this.timeout(180_000);
  const service = memorydProcess({ MEMORY_LOG_LEVEL: 'debug' });
  before(() => service.start());
  after(async () => {
    await service.stop();
    service.cleanup();
  });
  describeMetricsScenarios('memoryd (embedded)', {
    get url() {
      return service.url;
    },
    processUrls: () => [service.url],
    logs: () => service.logs(),
  });
});
