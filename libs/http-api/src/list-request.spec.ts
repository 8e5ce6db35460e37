import { expect } from 'chai';
import { requestErrorOf } from '@memory/testing';
import { decodeCursor, encodeCursor, parseInstant, validateListRequest } from './list-request.js';

const codeOf = requestErrorOf;

describe('GET /v1/memories parameters', () => {
  it('defaults to a first page of 20 with no filter', () => {
    expect(validateListRequest({})).to.deep.equal({ limit: 20 });
    expect(validateListRequest({ limit: '1' }).limit).to.equal(1);
    expect(validateListRequest({ limit: '100' }).limit).to.equal(100);
  });

  it('refuses a limit outside 1-100 or not a whole number with LIST.INVALID_LIMIT', () => {
    for (const limit of ['0', '101', '-1', '2.5', 'ten', '', '1e2']) expect(codeOf(() => validateListRequest({ limit })), limit).to.equal('400 LIST.INVALID_LIMIT');
  });

  it('round-trips a cursor and refuses a malformed one with LIST.INVALID_CURSOR', () => {
    const position = { createdAt: 1_709_251_200_000, id: 'mem_job_1709251200000_alice_0' };
    const cursor = encodeCursor(position);
    expect(cursor).to.match(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).to.deep.equal(position);
    expect(validateListRequest({ cursor }).after).to.deep.equal(position);
    const encoded = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    for (const bad of ['', 'not base64!', encoded({ createdAt: 1, id: 'x' }), encoded([1]), encoded(['1', 'x']), encoded([1, '']), encoded([1, 2]), encoded([null, 'x']), Buffer.from('[1,').toString('base64url')]) {
      expect(codeOf(() => validateListRequest({ cursor: bad })), bad).to.equal('400 LIST.INVALID_CURSOR');
    }
  });

  it('reads instants as epoch milliseconds or ISO 8601, UTC when no offset is given', () => {
    expect(parseInstant('x', '1709251200000')).to.equal(1_709_251_200_000);
    expect(parseInstant('x', '2024-03-01')).to.equal(Date.UTC(2024, 2, 1));
    expect(parseInstant('x', '2024-03-01T09:30')).to.equal(Date.UTC(2024, 2, 1, 9, 30));
    expect(parseInstant('x', '2024-03-01T09:30:00Z')).to.equal(Date.UTC(2024, 2, 1, 9, 30));
    expect(parseInstant('x', '2024-03-01T09:30:00.250+02:00')).to.equal(Date.UTC(2024, 2, 1, 7, 30, 0, 250));
    for (const bad of ['yesterday', '2024-13-01', '2024-03-01 09:30', '1.5', '']) expect(codeOf(() => parseInstant('x', bad)), bad).to.equal('400 LIST.INVALID_FILTER');
  });

  it('turns the filters into a store filter: memory types, [after, before) ranges, job id, metadata as text', () => {
    const query = validateListRequest({
      memory_type: 'fact, plan,fact',
      created_after: '2024-03-01',
      created_before: '1712000000000',
      event_after: '2024-01-01T00:00:00Z',
      job_id: 'job_1_alice',
      'metadata.project': 'apollo',
      'metadata.priority': '2',
    });
    expect(query.filter).to.deep.equal({
      memoryTypes: ['fact', 'plan'],
      created: { from: Date.UTC(2024, 2, 1), to: 1_712_000_000_000 },
      events: { from: Date.UTC(2024, 0, 1), to: Infinity },
      jobIds: ['job_1_alice'],
      metadata: { project: ['apollo'], priority: ['2'] },
    });
    expect(validateListRequest({ event_before: '2024-01-01' }).filter).to.deep.equal({ events: { from: -Infinity, to: Date.UTC(2024, 0, 1) } });
  });

  it('refuses bad filters with LIST.INVALID_FILTER, unknown and repeated parameters with their own codes', () => {
    expect(codeOf(() => validateListRequest({ memory_type: 'fact,,plan' }))).to.equal('400 LIST.INVALID_FILTER');
    expect(codeOf(() => validateListRequest({ memory_type: '' }))).to.equal('400 LIST.INVALID_FILTER');
    expect(codeOf(() => validateListRequest({ created_after: '2024-03-02', created_before: '2024-03-01' }))).to.equal('400 LIST.INVALID_FILTER');
    expect(codeOf(() => validateListRequest({ event_after: '2024-03-01', event_before: '2024-03-01' }))).to.equal('400 LIST.INVALID_FILTER');
    expect(codeOf(() => validateListRequest({ job_id: '' }))).to.equal('400 LIST.INVALID_FILTER');
    expect(codeOf(() => validateListRequest({ 'metadata.a.b': 'x' }))).to.equal('400 LIST.INVALID_FILTER');
    expect(codeOf(() => validateListRequest({ 'metadata.': 'x' }))).to.equal('400 LIST.INVALID_FILTER');
    expect(codeOf(() => validateListRequest({ 'metadata.__proto__': 'x' }))).to.equal('400 LIST.INVALID_FILTER');
    expect(codeOf(() => validateListRequest({ 'metadata.note': 'x'.repeat(513) }))).to.equal('400 LIST.INVALID_FILTER');
    expect(codeOf(() => validateListRequest({ memorytype: 'fact' }))).to.equal('400 LIST.UNKNOWN_PARAMETER');
    expect(codeOf(() => validateListRequest({ limit: ['5', '6'] }))).to.equal('400 LIST.INVALID_PARAMETER');
  });
});
