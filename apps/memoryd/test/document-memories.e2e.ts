import { fileURLToPath } from 'node:url';
import { describeDocumentScenarios, ServiceProcess, TEST_DOCUMENT_MAX_BYTES } from '@memory/testing';

const service = new ServiceProcess({
  entry: fileURLToPath(new URL('../src/main.ts', import.meta.url)),
  env: { MEMORY_MAX_DOCUMENT_BYTES: String(TEST_DOCUMENT_MAX_BYTES) },
});
describeDocumentScenarios('PDF memories (embedded default)', {
  get url() {
    return service.url;
  },
  start: () => service.start(),
  stop: async () => {
    await service.stop();
    service.cleanup();
  },
});
