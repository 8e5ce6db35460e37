import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { graphIds, type GraphStore } from '@memory/ports';
import { describeGraphStoreContract, expectCode, freshScope, tempDirStoreFactory } from '@memory/testing';
import { createEmbeddedGraphStore } from './index.js';

describeGraphStoreContract('graph-embedded', tempDirStoreFactory('graph-embedded', (dir) => createEmbeddedGraphStore({ dir })));

describe('graph-embedded', () => {
  let dir: string;
  let store: GraphStore;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'graph-embedded-'));
    store = createEmbeddedGraphStore({ dir });
  });

  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('skips edges to nodes never written, and deleteNodes clears such dangling edges', async () => {
    const scope = freshScope();
    const s = { tenantId: scope.tenantId, endUserId: scope.endUserId };
    const user = graphIds.user(scope);
    await store.upsert([{ id: user, kind: 'user', label: 'u', ...s }], [{ from: user, to: 'memory:ghost', kind: 'owns', ...s }]);
    expect(await store.neighbours(scope, user)).to.deep.equal([]);
    expect(await store.deleteNodes(scope, ['memory:ghost'])).to.equal(0);
    await store.upsert([{ id: 'memory:ghost', kind: 'memory', label: 'now written', ...s }], []);
    expect(await store.neighbours(scope, user), 'the edge went with the delete').to.deep.equal([]);
  });

  it('returns nothing at depth 0 and follows no edge for an empty kind list', async () => {
    const scope = freshScope();
    const s = { tenantId: scope.tenantId, endUserId: scope.endUserId };
    await store.upsert(
      [{ id: 'a', kind: 'memory', label: 'a', ...s }, { id: 'b', kind: 'memory', label: 'b', ...s }],
      [{ from: 'a', to: 'b', kind: 'next', ...s }],
    );
    expect(await store.neighbours(scope, 'a', { depth: 0 })).to.deep.equal([]);
    expect(await store.neighbours(scope, 'a', { edgeKinds: [] })).to.deep.equal([]);
    expect(await store.neighbours(scope, 'a', { depth: 5 })).to.have.length(1);
  });

  it('rejects malformed input with stable codes, and use after close', async () => {
    const scope = freshScope();
    await expectCode(store.neighbours(scope, 'a', { depth: -1 }), 'GRAPH.INVALID_ARGUMENT');
    await expectCode(store.neighbours(scope, 'a', { edgeKinds: ['likes' as never] }), 'GRAPH.INVALID_ARGUMENT');
    await expectCode(store.upsert([{ id: '', kind: 'user', label: 'x', ...scope }], []), 'GRAPH.INVALID_ARGUMENT');
    await expectCode(store.getNodes({ tenantId: 't', endUserId: '' }, ['a']), 'GRAPH.INVALID_ARGUMENT');
    await store.close();
    await expectCode(store.getNodes(scope, ['a']), 'GRAPH.CLOSED');
  });

  it('validates options before opening anything', () => {
    expect(() => createEmbeddedGraphStore({ dir: ' ' })).to.throw(/dir must be a non-empty path/);
  });
});
