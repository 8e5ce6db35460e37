import { expect } from 'chai';
import { graphIds, type Scope } from '@memory/ports';
import { documentKey, edgeKey, layoutFor, nodeHandle, nodeKey, vertexCollectionOf, vertexSlotOf } from './layout.js';

// ArangoDB document keys: 1..254 bytes of letters, digits and _-:.@()+,=;$!*'% (docs: Document keys).
const ARANGO_KEY = /^[A-Za-z0-9_\-:.@()+,=;$!*'%]{1,254}$/;

describe('graph-arangodb layout: keys and collections', () => {
  const scope: Scope = { tenantId: 'acme', endUserId: 'alice' };

  it('derives the same key for the same input, across versions (stored keys depend on it)', () => {
    expect(nodeKey(scope, 'memory:job-1#0')).to.equal('z-4cRGYg0d3lpXZcDajOkIAWTaTPkQ9bMjS_CfhNips');
    expect(edgeKey({ ...scope, from: 'user:acme/alice', kind: 'owns', to: 'memory:job-1#0' })).to.equal('JJT5ZDemR-IGBpBTekmsdKRIZbJiBIPvcGF_SJdzH7Q');
  });

  it('keeps every key within the ArangoDB key charset and length, whatever the id holds', () => {
    const awkward = ['a', 'memory:job/1#0', 'entity:t/u/person:zoë', '🙂 emoji', 'white space\tand\nnewlines', '../../etc', 'x'.repeat(10_000), '"quoted" \\ back', '\ud800 lone surrogate', ''];
    for (const id of awkward) {
      const key = nodeKey({ tenantId: 'tenant/with/slashes', endUserId: 'ünïcode' }, id);
      expect(key, id.slice(0, 30)).to.match(ARANGO_KEY);
      expect(key).to.have.length(43);
      expect(Buffer.byteLength(key, 'utf8')).to.be.at.most(254);
    }
  });

  it('gives different keys whenever scope or id differ, including where a separator would be ambiguous', () => {
    const pairs: Array<[Scope, string, Scope, string]> = [
      [{ tenantId: 'a/b', endUserId: 'c' }, 'x', { tenantId: 'a', endUserId: 'b/c' }, 'x'],
      [{ tenantId: 'a', endUserId: 'b' }, 'c","d', { tenantId: 'a', endUserId: 'b","c' }, 'd'],
      [scope, 'memory:m1', { ...scope, endUserId: 'bob' }, 'memory:m1'],
      [scope, 'memory:m1', { ...scope, tenantId: 'other' }, 'memory:m1'],
      [scope, '\ud800', scope, '\udc00'],
      [scope, '\ud800', scope, '\ufffd'],
      [scope, 'é', scope, 'e\u0301'], // ids are exact strings: no Unicode normalisation, as in the embedded store
    ];
    for (const [s1, id1, s2, id2] of pairs) expect(nodeKey(s1, id1), `${id1} vs ${id2}`).to.not.equal(nodeKey(s2, id2));
    expect(documentKey(['node', 'a', 'b', 'c'])).to.not.equal(documentKey(['edge', 'a', 'b', 'c']));
  });

  it('has no collisions over many realistic ids', () => {
    const keys = new Set<string>();
    let count = 0;
    for (let user = 0; user < 20; user++) {
      const s = { tenantId: `tenant-${user % 3}`, endUserId: `user-${user}` };
      for (let job = 0; job < 200; job++) {
        for (const id of [graphIds.memory(`job-${job}#${job % 4}`), graphIds.entity(s, `person:name${job}`), graphIds.user(s)]) {
          keys.add(nodeKey(s, id));
          count++;
        }
      }
    }
    // graphIds.user repeats per job on purpose: 20 users x 200 jobs x 2 distinct ids + 20 user ids.
    expect(keys.size).to.equal(20 * 200 * 2 + 20);
    expect(count).to.equal(20 * 200 * 3);
  });

  it('routes each node to a collection by the graphIds prefix of its id, anything else to other_nodes', () => {
    const layout = layoutFor('t_');
    expect(vertexCollectionOf(layout, graphIds.user(scope))).to.equal('t_users');
    expect(vertexCollectionOf(layout, graphIds.memory('job-1#0'))).to.equal('t_memories');
    expect(vertexCollectionOf(layout, graphIds.entity(scope, 'place:paris'))).to.equal('t_entities');
    for (const id of ['a', 'memory', 'users:x', 'Memory:x', ' memory:x']) expect(vertexSlotOf(id), id).to.equal('others');
  });

  it('names every collection and the graph with the prefix, and builds handles as collection/key', () => {
    expect(layoutFor('p_')).to.deep.equal({
      graph: 'p_graph',
      vertices: { users: 'p_users', memories: 'p_memories', entities: 'p_entities', documents: 'p_documents', others: 'p_other_nodes' },
      edges: { owns: 'p_owns', mentions: 'p_mentions', contains: 'p_contains', next: 'p_next' },
    });
    expect(nodeHandle(layoutFor('p_'), scope, 'memory:m1')).to.equal(`p_memories/${nodeKey(scope, 'memory:m1')}`);
  });
});
