import { expect } from 'chai';
import { errors } from '@elastic/elasticsearch';
import { ConfigError, MemoryServiceError } from '@memory/platform';
import { engineError, mapFailure, readableDocs } from './errors.js';
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

describe('readableDocs', () => {
  it('passes found and not-found documents, and fails a read with a document the engine could not read as retriable', () => {
    const found = { _index: 'k', _id: 'a', found: true, _source: { key: 'x' } };
    const absent = { _index: 'k', _id: 'b', found: false };
    expect(readableDocs('KEYS', 'read 2 data keys', [found, absent])).to.deep.equal([found, absent]);
    // What an mget answers for a document whose shard is not allocated yet, right after Elasticsearch restarts.
    const unreadable = { _index: 'k', _id: 'c', error: { type: 'no_shard_available_action_exception', reason: 'No shard available for [get [k][c]]' } };
    let thrown: unknown;
    try {
      readableDocs('KEYS', 'read 3 data keys', [found, absent, unreadable]);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).to.be.instanceOf(MemoryServiceError);
    expect(thrown).to.include({ code: 'KEYS.UNAVAILABLE', retriable: true });
    expect((thrown as Error).message).to.equal('read 3 data keys: no_shard_available_action_exception: No shard available for [get [k][c]]');
  });
});

describe('options', () => {
  it('reports every problem at once, before anything connects', () => {
    let caught: unknown;
    try {
      resolveElasticsearchStoresOptions({ node: 'ftp://x', dims: 0, prefix: 'Bad/Prefix', refresh: 'sometimes' as never, minRefreshSpacingMs: -1 });
    } catch (error) {
      caught = error;
    }
    expect(caught).to.be.instanceOf(ConfigError);
    const problems = (caught as ConfigError).details!['problems'] as string[];
    expect(problems).to.have.length(5);
  });

  it('fills the defaults', () => {
    expect(resolveElasticsearchStoresOptions({ node: 'http://127.0.0.1:9200', dims: 8 })).to.deep.include({
      prefix: 'memory',
      refresh: 'shared',
      minRefreshSpacingMs: 100,
      refreshInterval: '1s',
      minCandidates: 1_000,
      shards: 1,
      replicas: null,
    });
  });
});
