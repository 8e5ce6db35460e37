import { expect } from 'chai';
import { MemoryServiceError } from '@memory/platform';
import { unusedPort } from '@memory/testing';
import { quickRetryBackoff, SharedClient } from './client.js';
import { call } from './errors.js';
import { resolveElasticsearchStoresOptions } from './options.js';


describe('client', () => {
  it('backs off at most 0.2, 0.4 and 0.8 s between its own retries', () => {
    expect([1, 2, 3].map((attempt) => quickRetryBackoff(0, 4, attempt, () => 1))).to.deep.equal([0.2, 0.4, 0.8]);
    expect(quickRetryBackoff(0, 4, 9, () => 1)).to.equal(4);
    expect(quickRetryBackoff(0, 4, 3, () => 0)).to.equal(0);
  });

  it('answers UNAVAILABLE within 2 s when Elasticsearch refuses connections, after its retries', async () => {
    const settings = resolveElasticsearchStoresOptions({ node: `http://127.0.0.1:${await unusedPort()}`, dims: 3, maxRetries: 3 });
    const shared = SharedClient.connect(settings);
    const client = shared.acquire();
    const started = performance.now();
    let thrown: unknown;
    try {
      await call('VECTORS', 'read the cluster info', () => client.info());
    } catch (error) {
      thrown = error;
    } finally {
      await shared.release();
    }
    expect(thrown).to.be.instanceOf(MemoryServiceError);
    expect(thrown).to.include({ code: 'VECTORS.UNAVAILABLE', retriable: true });
    expect(performance.now() - started).to.be.below(2_000);
  });
});
