import { describeMetricsScenarios, describeWithEngine, localEngines } from '@memory/testing';
import { DistributedProcesses, dropTestNamespace } from './distributed-processes.js';

const engines = localEngines();

/** GET /metrics of every process of the distributed mode, and a request id followed across them, their logs captured. */
describeWithEngine('distributed mode metrics (Kafka, schema registry, Elasticsearch, MinIO)', [engines.kafka, engines.registry, engines.elasticsearch, engines.minio], () => {
  const service = new DistributedProcesses({ MEMORY_LOG_LEVEL: 'debug' });
  before(async function () {
    this.timeout(300_000);
    await service.start();
  });
  after(async function () {
    this.timeout(120_000);
    await service.stop();
    service.cleanup();
    await dropTestNamespace(service.namespace);
  });
  describeMetricsScenarios('edge, search app and stage workers', {
    get url() {
      return service.url;
    },
    processUrls: () => service.processes.map((process) => process.url),
    logs: () => service.processes.map((process) => process.logs()).join('\n'),
  });
});
