import { expect } from 'chai';
import { FILTER_LIMITS, instantFrom, parseSearchFilters } from './filters.js';

const outcome = (raw: unknown) => {
  try {
    return parseSearchFilters(raw);
  } catch (error) {
    const { status, code, message } = error as { status: number; code: string; message: string };
    return `${status} ${code}: ${message}`;
  }
};

describe('search filters', () => {
  it('turns the JSON filters into a store filter: one value or several, [after, before) ranges, metadata as text', () => {
    expect(
      parseSearchFilters({
        memory_type: ['fact', 'plan', 'fact'],
        created_after: '2024-03-01',
        created_before: 1_712_000_000_000,
        event_after: '2024-01-01T00:00:00Z',
        job_id: 'doc_job_1_alice',
        metadata: { project: 'apollo', priority: 2, pinned: true, team: { in: ['red', 'blue', 3] } },
      }),
    ).to.deep.equal({
      memoryTypes: ['fact', 'plan'],
      created: { from: Date.UTC(2024, 2, 1), to: 1_712_000_000_000 },
      events: { from: Date.UTC(2024, 0, 1), to: Infinity },
      jobIds: ['doc_job_1_alice'],
      metadata: { project: ['apollo'], priority: ['2'], pinned: ['true'], team: ['red', 'blue', '3'] },
    });
    expect(parseSearchFilters({ memory_type: 'image', any: [{ job_id: ['a', 'b'] }, { not: { metadata: { x: false } } }] })).to.deep.equal({
      memoryTypes: ['image'],
      any: [{ jobIds: ['a', 'b'] }, { not: { metadata: { x: ['false'] } } }],
    });
    expect(parseSearchFilters(undefined)).to.equal(undefined);
    expect(parseSearchFilters(null)).to.equal(undefined);
    expect(parseSearchFilters({})).to.equal(undefined);
  });

  it('reads instants one way: epoch milliseconds or ISO 8601, UTC without an offset', () => {
    expect(instantFrom('2024-03-01')).to.equal(Date.UTC(2024, 2, 1));
    expect(instantFrom('2024-03-01T09:30')).to.equal(Date.UTC(2024, 2, 1, 9, 30));
    expect(instantFrom('2024-03-01T09:30:00+02:00')).to.equal(Date.UTC(2024, 2, 1, 7, 30));
    expect(instantFrom(1_700_000_000_000)).to.equal(1_700_000_000_000);
    expect(instantFrom('1700000000000')).to.equal(1_700_000_000_000);
    for (const bad of ['yesterday', '2024-13-01', '2024-03-01 09:30', '1.5', '', 1.5, Number.NaN]) expect(instantFrom(bad), String(bad)).to.equal(null);
  });

  it('refuses unknown fields with FILTER.UNKNOWN_FIELD, at any depth', () => {
    expect(outcome({ memory_types: 'fact' })).to.match(/^400 FILTER\.UNKNOWN_FIELD: filters\.memory_types is not a filter/);
    expect(outcome({ any: [{ jobId: 'x' }] })).to.match(/^400 FILTER\.UNKNOWN_FIELD: filters\.any\[0\]\.jobId/);
  });

  it('refuses every other mistake with FILTER.INVALID, naming the field', () => {
    const invalid: Array<[unknown, string]> = [
      ['fact', 'filters must be an object'],
      [[], 'filters must be an object'],
      [{ memory_type: [] }, 'filters.memory_type'],
      [{ memory_type: [''] }, 'filters.memory_type'],
      [{ memory_type: 3 }, 'filters.memory_type'],
      [{ memory_type: Array.from({ length: FILTER_LIMITS.maxMemoryTypes + 1 }, (_, i) => `t${i}`) }, 'filters.memory_type'],
      [{ job_id: 'x'.repeat(FILTER_LIMITS.maxJobIdChars + 1) }, 'filters.job_id'],
      [{ created_after: 'yesterday' }, 'filters.created_after'],
      [{ event_before: true }, 'filters.event_before'],
      [{ created_after: '2024-03-02', created_before: '2024-03-01' }, 'filters.created_after must be earlier'],
      [{ event_after: 5, event_before: 5 }, 'filters.event_after must be earlier'],
      [{ metadata: 'apollo' }, 'filters.metadata must be an object'],
      [{ metadata: {} }, 'filters.metadata must hold'],
      [{ metadata: { 'a.b': 'x' } }, 'not a metadata key'],
      [{ metadata: { __proto__: 'x' } }, 'filters.metadata'],
      [{ metadata: { a: null } }, 'filters.metadata.a'],
      [{ metadata: { a: ['x'] } }, 'filters.metadata.a'],
      [{ metadata: { a: { in: [] } } }, 'filters.metadata.a.in'],
      [{ metadata: { a: { in: ['x'], also: 1 } } }, 'filters.metadata.a must be a value or'],
      [{ metadata: { a: { eq: 'x' } } }, 'filters.metadata.a must be a value or'],
      [{ metadata: { a: 'x'.repeat(513) } }, 'filters.metadata.a'],
      [{ metadata: { a: Infinity } }, 'filters.metadata.a'],
      [{ any: [] }, 'filters.any'],
      [{ any: {} }, 'filters.any'],
      [{ not: 'fact' }, 'filters.not must be an object'],
      [{ not: { not: { not: { memory_type: 'fact' } } } }, 'nest at most'],
    ];
    for (const [raw, says] of invalid) {
      const result = outcome(raw);
      expect(result, JSON.stringify(raw)).to.be.a('string').and.match(/^400 FILTER\.INVALID: /);
      expect(result, JSON.stringify(raw)).to.include(says);
    }
  });
});
