import { expect } from 'chai';
import { checkListQuery, compareNewestFirst, type ListQuery } from './memory-list.js';

describe('memory list meaning', () => {
  it('orders newest first, then the larger id first', () => {
    const items = [{ createdAt: 1, id: 'b' }, { createdAt: 2, id: 'a' }, { createdAt: 1, id: 'c' }, { createdAt: 2, id: 'b' }];
    expect(items.sort(compareNewestFirst).map((p) => `${p.createdAt}${p.id}`)).to.deep.equal(['2b', '2a', '1c', '1b']);
  });

  it('refuses malformed list queries with VECTORS.INVALID_QUERY', () => {
    const code = (query: unknown) => {
      try {
        checkListQuery(query as ListQuery);
        return 'accepted';
      } catch (error) {
        return (error as { code: string }).code;
      }
    };
    expect(code({ limit: 0 })).to.equal('accepted');
    expect(code({ limit: 5, after: { createdAt: 1, id: 'a' }, filter: { memoryTypes: ['fact'], created: { from: -Infinity, to: 5 }, jobIds: ['j'], metadata: { a: ['b'] } } })).to.equal('accepted');
    for (const bad of [{}, { limit: -1 }, { limit: 2.5 }, { limit: 5, after: { createdAt: Infinity, id: 'a' } }, { limit: 5, after: { createdAt: 1 } }, { limit: 5, filter: { memoryTypes: [1] } }, { limit: 5, filter: null }]) {
      expect(code(bad), JSON.stringify(bad)).to.equal('VECTORS.INVALID_QUERY');
    }
  });
});
