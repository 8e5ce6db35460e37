import { expect } from 'chai';
import { errors } from '@elastic/elasticsearch';
import { ConfigError, MemoryServiceError } from '@memory/platform';
import { engineError, mapFailure } from './errors.js';
import { resolveElasticsearchStoresOptions } from './options.js';

describe('error mapping', () => {
  it('retries what may heal (429, 408, 5xx) and not what the request itself caused', () => {
    expect(mapFailure({ status: 429, type: 'es_rejected_execution_exception' })).to.deep.equal({ code: 'UNAVAILABLE', retriable: true });
    expect(mapFailure({ status: 503 })).to.deep.equal({ code: 'UNAVAILABLE', retriable: true });
    expect(mapFailure({ status: 408 })).to.deep.equal({ code: 'UNAVAILABLE', retriable: true });
    expect(mapFailure({ status: 400, type: 'document_parsing_exception' })).to.deep.equal({ code: 'REJECTED', retriable: false });
    expect(mapFailure({ status: 404, type: 'index_not_found_exception' })).to.deep.equal({ code: 'NO_INDEX', retriable: false });
    expect(mapFailure({ status: 401, type: 'security_exception' })).to.deep.equal({ code: 'UNAUTHORIZED', retriable: false });
    expect(mapFailure({ status: 429, type: 'cluster_block_exception', reason: 'index [x] blocked by: [TOO_MANY_REQUESTS/12/disk usage exceeded flood-stage watermark, index has read-only-allow-delete block]' })).to.deep.equal({
      code: 'DISK_FULL',
      retriable: true,
    });
  });

  it('maps client failures into the port\'s family, keeping the cause', () => {
    const refused = new errors.ConnectionError('connect ECONNREFUSED 127.0.0.1:9200');
    const mapped = engineError('JOBS', 'read job t/j', refused);
    expect(mapped).to.be.instanceOf(MemoryServiceError);
    expect(mapped).to.include({ code: 'JOBS.UNAVAILABLE', retriable: true });
    expect(mapped.cause).to.equal(refused);
    const own = new MemoryServiceError('VECTORS.INVALID_SCOPE', 'x');
    expect(engineError('VECTORS', 'x', own)).to.equal(own);
  });
});

describe('options', () => {
  it('reports every problem at once, before anything connects', () => {
    let caught: unknown;
    try {
      resolveElasticsearchStoresOptions({ node: 'ftp://x', dims: 0, prefix: 'Bad/Prefix', refresh: 'sometimes' as never });
    } catch (error) {
      caught = error;
    }
    expect(caught).to.be.instanceOf(ConfigError);
    const problems = (caught as ConfigError).details!['problems'] as string[];
    expect(problems).to.have.length(4);
  });

  it('fills the defaults', () => {
    expect(resolveElasticsearchStoresOptions({ node: 'http://127.0.0.1:9200', dims: 8 })).to.deep.include({
      prefix: 'memory',
      refresh: 'wait_for',
      refreshInterval: '1s',
      minCandidates: 1_000,
      shards: 1,
      replicas: null,
    });
  });
});
