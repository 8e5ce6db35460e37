import { expect } from 'chai';
import { Database } from 'arangojs';
import { graphIds, type GraphStore } from '@memory/ports';
import { describeGraphStoreContract, describeWithEngine, expectCode, freshScope, uniqueName, unusedPort, type RealEngine, type StoreFactory } from '@memory/testing';
import { ArangoGraphStore } from './graph-store.js';
import { dropArangoGraphStore, openArangoGraphStore, type ArangoGraphStoreOptions } from './index.js';
import { layoutFor, nodeKey } from './layout.js';

const url = (process.env['ARANGO_URL'] ?? 'http://127.0.0.1:8529').replace(/\/+$/, '');
const username = process.env['ARANGO_USERNAME'] ?? 'root';
const password = process.env['ARANGO_PASSWORD'] ?? '';
const database = process.env['ARANGO_DATABASE'] ?? 'memory_test';

const arangodb: RealEngine = {
  name: 'arangodb',
  endpoint: url,
  async probe() {
    const response = await fetch(`${url}/_api/version`, {
      headers: { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` },
      signal: AbortSignal.timeout(2_000),
    });
    // A 401 is an ArangoDB that is there but refuses these credentials: run, and fail saying so, rather than skip.
    return response.ok || response.status === 401;
  },
  hint: 'set ARANGO_URL to a reachable ArangoDB (e.g. the arangodb service of docker-compose.yml)',
};

/** Every store gets collections of its own (a unique prefix) in the shared test database. */
function storeOptions(): ArangoGraphStoreOptions {
  return { url, username, password, database, createDatabase: true, collectionPrefix: `${uniqueName('g').replace(/-/g, '_')}_` };
}

const arangoFactory: StoreFactory<GraphStore> = async () => {
  const options = storeOptions();
  let current: GraphStore | null = await openArangoGraphStore(options);
  const harness = {
    store: current,
    async reopen() {
      await current?.close();
      current = null;
      current = await openArangoGraphStore(options);
      harness.store = current;
      return current;
    },
    async cleanup() {
      await current?.close();
      current = null;
      await dropArangoGraphStore(options);
    },
  };
  return harness;
};


describe('graph-arangodb without a server', () => {
  it('fails to open with a retriable GRAPH.UNAVAILABLE when nothing answers', async () => {
    const error = await expectCode(openArangoGraphStore({ url: `http://127.0.0.1:${await unusedPort()}` }), 'GRAPH.UNAVAILABLE');
    expect((error as unknown as { retriable: boolean }).retriable).to.equal(true);
  });

  it('rejects bad options before connecting', async () => {
    await expectCode(openArangoGraphStore({ url: 'http://127.0.0.1:1', collectionPrefix: 'no/slashes' }), 'CONFIG.INVALID');
  });

  it('checks every input before sending anything, answers trivial questions without a query, and refuses use after close', async () => {
    const db = new Database({ url: `http://127.0.0.1:${await unusedPort()}` });
    const store = new ArangoGraphStore(db, layoutFor('t_'), { waitForSync: true, queryTimeoutMs: 2_000, conflictRetries: 0 });
    const scope = freshScope();
    await expectCode(store.neighbours(scope, 'a', { depth: -1 }), 'GRAPH.INVALID_ARGUMENT');
    await expectCode(store.neighbours(scope, 'a', { depth: 1.5 }), 'GRAPH.INVALID_ARGUMENT');
    await expectCode(store.neighbours(scope, 'a', { edgeKinds: ['likes' as never] }), 'GRAPH.INVALID_ARGUMENT');
    await expectCode(store.upsert([{ id: '', kind: 'user', label: 'x', ...scope }], []), 'GRAPH.INVALID_ARGUMENT');
    await expectCode(store.upsert([{ id: 'a', kind: 'person' as never, label: 'x', ...scope }], []), 'GRAPH.INVALID_ARGUMENT');
    await expectCode(store.upsert([], [{ from: 'a', to: 'b', kind: 'likes' as never, ...scope }]), 'GRAPH.INVALID_ARGUMENT');
    await expectCode(store.getNodes({ tenantId: 't', endUserId: '' }, ['a']), 'GRAPH.INVALID_ARGUMENT');
    await expectCode(store.deleteNodes(scope, ['']), 'GRAPH.INVALID_ARGUMENT');

    // Nothing to ask: answered here (the server is unreachable, so a query would fail).
    expect(await store.neighbours(scope, 'a', { depth: 0 })).to.deep.equal([]);
    expect(await store.neighbours(scope, 'a', { edgeKinds: [] })).to.deep.equal([]);
    expect(await store.getNodes(scope, [])).to.deep.equal([]);
    expect(await store.findEntities(scope, [])).to.deep.equal([]);
    expect(await store.deleteNodes(scope, [])).to.equal(0);
    await store.upsert([], []);

    // A real query against the unreachable server: retriable, with the operation in the message.
    const error = await expectCode(store.getNodes(scope, ['a']), 'GRAPH.UNAVAILABLE');
    expect(error.message).to.match(/graph store getNodes failed/);

    await store.close();
    await store.close();
    await expectCode(store.getNodes(scope, ['a']), 'GRAPH.CLOSED');
    await expectCode(store.upsert([], []), 'GRAPH.CLOSED');
  });
});

describeWithEngine('graph-arangodb against ArangoDB', arangodb, () => {
  describeGraphStoreContract('arangodb', arangoFactory);

  describe('ArangoDB specifics', function () {
    this.timeout(30_000);
    let options: ArangoGraphStoreOptions;
    let store: GraphStore;

    beforeEach(async () => {
      options = storeOptions();
      store = await openArangoGraphStore(options);
    });

    afterEach(async () => {
      await store.close();
      await dropArangoGraphStore(options);
    });

    it('stores each node in the collection of its kind under the derived key, with the graph over them', async () => {
      const scope = freshScope();
      const memory = graphIds.memory('job-1#0');
      await store.upsert([{ id: memory, kind: 'memory', label: 'm', ...scope }], []);
      const db = new Database({ url, databaseName: database, auth: { username, password } });
      try {
        const layout = layoutFor(options.collectionPrefix!);
        const stored = await db.collection(layout.vertices.memories).document(nodeKey(scope, memory));
        expect(stored).to.include({ id: memory, tenantId: scope.tenantId, endUserId: scope.endUserId });
        const graph = await db.graph(layout.graph).get();
        expect(graph.edgeDefinitions.map((d) => d.collection).sort()).to.deep.equal(Object.values(layout.edges).sort());
      } finally {
        db.close();
      }
    });

    it('skips edges to nodes never written, and deleteNodes clears such dangling edges', async () => {
      const scope = freshScope();
      const user = graphIds.user(scope);
      await store.upsert([{ id: user, kind: 'user', label: 'u', ...scope }], [{ from: user, to: 'memory:ghost', kind: 'owns', ...scope }]);
      expect(await store.neighbours(scope, user)).to.deep.equal([]);
      expect(await store.deleteNodes(scope, ['memory:ghost'])).to.equal(0);
      await store.upsert([{ id: 'memory:ghost', kind: 'memory', label: 'now written', ...scope }], []);
      expect(await store.neighbours(scope, user), 'the edge went with the delete').to.deep.equal([]);
    });

    it('takes ids of any shape, and the same memory written concurrently by several writers', async () => {
      const scope = freshScope();
      const nodes = [
        { id: 'a', kind: 'memory' as const, label: 'a', ...scope },
        { id: 'b/ü 🙂', kind: 'memory' as const, label: 'b', ...scope },
      ];
      const edges = [{ from: 'a', to: 'b/ü 🙂', kind: 'next' as const, ...scope }];
      await Promise.all(Array.from({ length: 5 }, () => store.upsert(nodes, edges)));
      expect(await store.getNodes(scope, ['b/ü 🙂', 'a'])).to.deep.equal([nodes[1], nodes[0]]);
      expect((await store.neighbours(scope, 'a', { depth: 5 })).map((n) => n.node.id)).to.deep.equal(['b/ü 🙂']);
    });

    it('opens the same store from several processes at once', async () => {
      const again = await Promise.all([openArangoGraphStore(options), openArangoGraphStore(options)]);
      await Promise.all(again.map((s) => s.close()));
    });

    it('does not create a missing database unless asked to', async () => {
      await expectCode(openArangoGraphStore({ ...options, database: `missing_${uniqueName('db').replace(/-/g, '_')}`, createDatabase: false }), 'GRAPH.NOT_PROVISIONED');
    });
  });
});
