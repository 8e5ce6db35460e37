import { expect } from 'chai';
import type { GraphEdge, GraphNode } from '@memory/ports';
import { expectCode } from '@memory/testing';
import { edgeDocument, edgeFromDocument, nodeDocument, nodeFromDocument } from './documents.js';
import { layoutFor, nodeHandle, nodeKey } from './layout.js';

describe('graph-arangodb documents', () => {
  const layout = layoutFor('t_');
  const scope = { tenantId: 'acme', endUserId: 'alice' };
  const alice: GraphNode = { id: 'entity:acme/alice/person:alice', kind: 'entity', label: 'Alice', entityType: 'person', ...scope };
  const memory: GraphNode = { id: 'memory:m1', kind: 'memory', label: 'Met Alice', ...scope };
  const mentions: GraphEdge = { from: memory.id, to: alice.id, kind: 'mentions', ...scope };

  it('stores a node under its derived key in its collection and reads back exactly the port shape', () => {
    const { collection, document } = nodeDocument(layout, alice);
    expect(collection).to.equal('t_entities');
    expect(document._key).to.equal(nodeKey(scope, alice.id));
    // What ArangoDB returns carries system attributes too; none of them leak into the port's node.
    expect(nodeFromDocument({ ...document, _id: `${collection}/${document._key}`, _rev: '_abc' })).to.deep.equal(alice);
    expect(nodeFromDocument(nodeDocument(layout, memory).document)).to.deep.equal(memory);
    expect(nodeFromDocument(nodeDocument(layout, memory).document)).to.not.have.property('entityType');
  });

  it('stores an edge in the collection of its kind, pointing at the handles of both ends', () => {
    const { collection, document } = edgeDocument(layout, mentions);
    expect(collection).to.equal('t_mentions');
    expect(document._from).to.equal(nodeHandle(layout, scope, memory.id));
    expect(document._to).to.equal(nodeHandle(layout, scope, alice.id));
    expect(edgeFromDocument({ ...document, _id: 'x', _rev: 'y' })).to.deep.equal(mentions);
  });

  it('refuses documents that are not ours instead of returning half a node', async () => {
    await expectCode(async () => nodeFromDocument({ id: 'x', kind: 'memory' }), 'GRAPH.CORRUPT');
    await expectCode(async () => edgeFromDocument(null), 'GRAPH.CORRUPT');
  });
});
