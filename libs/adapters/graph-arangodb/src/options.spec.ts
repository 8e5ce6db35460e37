import { expect } from 'chai';
import { ConfigError } from '@memory/platform';
import { resolveArangoGraphStoreOptions, type ArangoGraphStoreOptions } from './options.js';

describe('graph-arangodb options', () => {
  it('fills in defaults', () => {
    expect(resolveArangoGraphStoreOptions({ url: 'http://127.0.0.1:8529' })).to.deep.equal({
      url: 'http://127.0.0.1:8529',
      database: 'memory',
      username: 'root',
      password: '',
      collectionPrefix: 'memory_',
      createDatabase: false,
      waitForSync: true,
      queryTimeoutMs: 30_000,
      conflictRetries: 3,
    });
  });

  it('reports every problem at once, before connecting', () => {
    const bad = { url: 'ftp://x', database: '_system', collectionPrefix: 'bad/prefix', username: '', queryTimeoutMs: 0, conflictRetries: -1 };
    try {
      resolveArangoGraphStoreOptions(bad as ArangoGraphStoreOptions);
      expect.fail('should have thrown');
    } catch (error) {
      expect(error).to.be.instanceOf(ConfigError);
      const problems = (error as ConfigError).details?.['problems'] as string[];
      expect(problems).to.have.length(6);
      expect(problems.join('\n')).to.match(/url/).and.match(/database/).and.match(/collectionPrefix/).and.match(/username/).and.match(/queryTimeoutMs/).and.match(/conflictRetries/);
    }
  });

  it('needs a url, and keeps prefixes short enough for every collection name', () => {
    expect(() => resolveArangoGraphStoreOptions({} as ArangoGraphStoreOptions)).to.throw(ConfigError, /url must be the ArangoDB endpoint/);
    expect(() => resolveArangoGraphStoreOptions({ url: 'http://a', collectionPrefix: `p${'x'.repeat(40)}` })).to.throw(/collectionPrefix/);
    expect(() => resolveArangoGraphStoreOptions({ url: 'http://a', collectionPrefix: '1abc' })).to.throw(/collectionPrefix/);
    expect(resolveArangoGraphStoreOptions({ url: 'https://db.example:8529', collectionPrefix: 'g_lx1-ab_' }).collectionPrefix).to.equal('g_lx1-ab_');
  });
});
