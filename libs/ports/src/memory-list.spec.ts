import { expect } from 'chai';
import { checkListQuery, compareNewestFirst, matchesListFilter, metadataTexts, type ListQuery } from './memory-list.js';

const memory = (overrides: Partial<Parameters<typeof matchesListFilter>[1]> = {}) => ({
  memoryType: 'fact',
  jobId: 'job-1',
  createdAt: 1_000,
  eventTimes: [] as Array<{ text: string; index: number; start: number; end: number; iso: string; relative: boolean }>,
  metadata: null,
  ...overrides,
});
const mention = (start: number, end: number) => ({ text: 't', index: 0, start, end, iso: '', relative: false });

describe('memory list meaning', () => {
  it('orders newest first, then the larger id first', () => {
    const items = [{ createdAt: 1, id: 'b' }, { createdAt: 2, id: 'a' }, { createdAt: 1, id: 'c' }, { createdAt: 2, id: 'b' }];
    expect(items.sort(compareNewestFirst).map((p) => `${p.createdAt}${p.id}`)).to.deep.equal(['2b', '2a', '1c', '1b']);
  });

  it('keeps what passes every condition: types, job, creation [from, to), event overlap, metadata as text', () => {
    expect(matchesListFilter({}, memory())).to.equal(true);
    expect(matchesListFilter({ memoryTypes: ['plan', 'fact'] }, memory())).to.equal(true);
    expect(matchesListFilter({ memoryTypes: ['plan'] }, memory())).to.equal(false);
    expect(matchesListFilter({ jobId: 'job-2' }, memory())).to.equal(false);
    expect(matchesListFilter({ created: { from: 1_000, to: 1_001 } }, memory())).to.equal(true);
    expect(matchesListFilter({ created: { from: 0, to: 1_000 } }, memory())).to.equal(false);
    expect(matchesListFilter({ events: { from: 0, to: 1_001 } }, memory()), 'no event times: the creation time').to.equal(true);
    expect(matchesListFilter({ events: { from: 0, to: 1_001 } }, memory({ eventTimes: [mention(5_000, 6_000)] }))).to.equal(false);
    expect(matchesListFilter({ events: { from: 5_500, to: 9_000 } }, memory({ eventTimes: [mention(5_000, 6_000)] }))).to.equal(true);
    expect(matchesListFilter({ events: { from: 6_000, to: 9_000 } }, memory({ eventTimes: [mention(5_000, 6_000)] })), 'end is exclusive').to.equal(false);
    const tagged = memory({ metadata: { project: 'apollo', priority: 2, pinned: true } });
    expect(matchesListFilter({ metadata: { project: 'apollo', priority: '2', pinned: 'true' } }, tagged)).to.equal(true);
    expect(matchesListFilter({ metadata: { priority: '2.0' } }, tagged)).to.equal(false);
    expect(matchesListFilter({ metadata: { missing: 'undefined' } }, tagged)).to.equal(false);
    expect(matchesListFilter({ metadata: { toString: 'x' } }, tagged), 'inherited properties are not metadata').to.equal(false);
    expect(matchesListFilter({ metadata: { project: 'apollo' } }, memory())).to.equal(false);
    expect(metadataTexts({ a: 2.5, b: false, c: 'x' })).to.deep.equal({ a: '2.5', b: 'false', c: 'x' });
    expect(metadataTexts(null)).to.deep.equal({});
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
    expect(code({ limit: 5, after: { createdAt: 1, id: 'a' }, filter: { memoryTypes: ['fact'], created: { from: -Infinity, to: 5 }, jobId: 'j', metadata: { a: 'b' } } })).to.equal('accepted');
    for (const bad of [{}, { limit: -1 }, { limit: 2.5 }, { limit: 5, after: { createdAt: Infinity, id: 'a' } }, { limit: 5, after: { createdAt: 1 } }, { limit: 5, filter: { memoryTypes: [1] } }, { limit: 5, filter: { events: { from: 'x', to: 1 } } }, { limit: 5, filter: { jobId: 3 } }, { limit: 5, filter: { metadata: { a: 1 } } }, { limit: 5, filter: { metadata: null } }]) {
      expect(code(bad), JSON.stringify(bad)).to.equal('VECTORS.INVALID_QUERY');
    }
  });
});
