import { expect } from 'chai';
import { checkFilter, matchesFilter, metadataTexts, type FilterFacts, type MemoryFilter } from './memory-filter.js';

const memory = (overrides: Partial<FilterFacts> = {}): FilterFacts => ({
  memoryType: 'fact',
  jobId: 'job-1',
  createdAt: 1_000,
  eventTimes: [],
  metadata: null,
  ...overrides,
});
const mention = (start: number, end: number) => ({ text: 't', index: 0, start, end, iso: '', relative: false });

describe('memory filter meaning', () => {
  it('keeps what passes every condition: types, jobs, creation [from, to), event overlap, metadata as text', () => {
    expect(matchesFilter({}, memory())).to.equal(true);
    expect(matchesFilter({ memoryTypes: ['plan', 'fact'] }, memory())).to.equal(true);
    expect(matchesFilter({ memoryTypes: ['plan'] }, memory())).to.equal(false);
    expect(matchesFilter({ jobIds: ['job-2'] }, memory())).to.equal(false);
    expect(matchesFilter({ jobIds: ['job-2', 'job-1'] }, memory())).to.equal(true);
    expect(matchesFilter({ created: { from: 1_000, to: 1_001 } }, memory())).to.equal(true);
    expect(matchesFilter({ created: { from: 0, to: 1_000 } }, memory())).to.equal(false);
    expect(matchesFilter({ events: { from: 0, to: 1_001 } }, memory()), 'no event times: the creation time').to.equal(true);
    expect(matchesFilter({ events: { from: 0, to: 1_001 } }, memory({ eventTimes: [mention(5_000, 6_000)] }))).to.equal(false);
    expect(matchesFilter({ events: { from: 5_500, to: 9_000 } }, memory({ eventTimes: [mention(5_000, 6_000)] }))).to.equal(true);
    expect(matchesFilter({ events: { from: 6_000, to: 9_000 } }, memory({ eventTimes: [mention(5_000, 6_000)] })), 'end is exclusive').to.equal(false);
    const tagged = memory({ metadata: { project: 'apollo', priority: 2, pinned: true } });
    expect(matchesFilter({ metadata: { project: ['apollo'], priority: ['2'], pinned: ['true'] } }, tagged)).to.equal(true);
    expect(matchesFilter({ metadata: { project: ['gemini', 'apollo'] } }, tagged), 'in: any of the texts').to.equal(true);
    expect(matchesFilter({ metadata: { project: ['gemini', 'mercury'] } }, tagged)).to.equal(false);
    expect(matchesFilter({ metadata: { priority: ['2.0'] } }, tagged)).to.equal(false);
    expect(matchesFilter({ metadata: { missing: ['undefined'] } }, tagged)).to.equal(false);
    expect(matchesFilter({ metadata: { toString: ['x'] } }, tagged), 'inherited properties are not metadata').to.equal(false);
    expect(matchesFilter({ metadata: { project: ['apollo'] } }, memory())).to.equal(false);
    expect(matchesFilter({ memoryTypes: ['fact'], metadata: { project: ['apollo'] }, jobIds: ['job-2'] }, tagged), 'AND').to.equal(false);
    expect(metadataTexts({ a: 2.5, b: false, c: 'x' })).to.deep.equal({ a: '2.5', b: 'false', c: 'x' });
    expect(metadataTexts(null)).to.deep.equal({});
  });

  it('combines sub-filters with any (OR) and not (NOT); not of a metadata condition keeps memories without the key', () => {
    const tagged = memory({ metadata: { project: 'apollo' } });
    expect(matchesFilter({ any: [{ memoryTypes: ['plan'] }, { metadata: { project: ['apollo'] } }] }, tagged)).to.equal(true);
    expect(matchesFilter({ any: [{ memoryTypes: ['plan'] }, { jobIds: ['job-9'] }] }, tagged)).to.equal(false);
    expect(matchesFilter({ not: { metadata: { project: ['apollo'] } } }, tagged)).to.equal(false);
    expect(matchesFilter({ not: { metadata: { project: ['apollo'] } } }, memory())).to.equal(true);
    expect(matchesFilter({ memoryTypes: ['fact'], not: { any: [{ jobIds: ['job-1'] }] } }, tagged)).to.equal(false);
  });

  it('refuses malformed filters with VECTORS.INVALID_QUERY, naming where', () => {
    const outcome = (filter: unknown) => {
      try {
        checkFilter(filter as MemoryFilter);
        return 'accepted';
      } catch (error) {
        return `${(error as { code: string }).code} ${(error as Error).message}`;
      }
    };
    expect(outcome(undefined)).to.equal('accepted');
    expect(outcome({ memoryTypes: ['fact'], created: { from: -Infinity, to: 5 }, jobIds: ['j'], metadata: { a: ['b'] }, any: [{ not: {} }] })).to.equal('accepted');
    for (const bad of [null, [], { memoryTypes: [1] }, { events: { from: 'x', to: 1 } }, { jobIds: 'j' }, { metadata: { a: 'b' } }, { metadata: null }, { any: [] }, { any: {} }, { not: 3 }]) {
      expect(outcome(bad), JSON.stringify(bad)).to.match(/^VECTORS\.INVALID_QUERY /);
    }
    expect(outcome({ any: [{}, { jobIds: [2] }] })).to.equal('VECTORS.INVALID_QUERY filter.any[1].jobIds must be an array of strings');
  });
});
