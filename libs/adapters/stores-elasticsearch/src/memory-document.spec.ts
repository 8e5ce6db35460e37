import { expect } from 'chai';
import { memoryRecord, plainRecord, unitVector } from '@memory/testing';
import { eventRanges, fromMemoryDocument, timesBytes, timesFromBytes, toMemoryDocument, vectorBytes, vectorFromBytes } from './memory-document.js';
import { documentId } from './names.js';

const mention = (start: number, end: number) => ({ text: 't', index: 0, start, end, iso: '', relative: false });

describe('memory documents', () => {
  it('read back through JSON as the same record, float32 vector bit for bit, derived fields dropped', () => {
    const record = memoryRecord({ tenantId: 't', endUserId: 'u' }, 'm1', 5, {
      vector: unitVector(5, { 0: 0.1, 1: 0.7, 4: -0.3 }),
      eventTimes: [mention(1_000, 2_000)],
      userContext: null,
    });
    const stored = JSON.parse(JSON.stringify(toMemoryDocument(record)));
    expect(stored.eventRanges).to.deep.equal([{ gte: 1_000, lt: 2_000 }]);
    expect(stored.lexicalTerms).to.be.a('string');
    expect(stored.identifiers).to.include('m1');
    const read = fromMemoryDocument(stored);
    expect(read.vector).to.be.instanceOf(Float32Array);
    expect(plainRecord(read)).to.deep.equal(plainRecord(record));
  });

  it('stores the memory\'s lexical terms joined by spaces and its identifiers, lower-cased', () => {
    const record = memoryRecord({ tenantId: 't', endUserId: 'u' }, 'Mem-1', 3, {
      jobId: 'Job-9',
      content: 'Painted the fence; ticket TKT-5521',
      originalContent: 'painted the fence, ticket TKT-5521',
      userContext: 'Garden',
    });
    const document = toMemoryDocument(record);
    expect(document.lexicalTerms).to.equal('paint fenc ticket tkt 5521 garden');
    expect(document.identifiers).to.deep.equal(['mem-1', 'job-9', 'tkt-5521']);
  });

  it('keeps the vector\'s float32 values bit for bit in vectorBytes', () => {
    const vector = Float32Array.from([0.1, -0.7, 3.4028234663852886e38, -0, 1e-45]);
    expect(Array.from(vectorFromBytes(vectorBytes(vector)))).to.deep.equal(Array.from(vector));
    expect(vectorBytes(Float32Array.from([1]))).to.equal('AACAPw==');
  });

  it('keeps the creation time and each event time\'s start and end in timesBytes, never empty', () => {
    const times = { createdAt: 1_732_345_678_901, eventTimes: [{ start: 1_700_000_000_000, end: 1_700_003_600_000 }, { start: -86_400_000, end: -86_400_000 }] };
    expect(timesFromBytes(timesBytes(times))).to.deep.equal(times);
    expect(timesFromBytes(timesBytes({ createdAt: 5, eventTimes: [] }))).to.deep.equal({ createdAt: 5, eventTimes: [] });
    expect(timesBytes({ createdAt: 0, eventTimes: [] })).to.equal('AAAAAAAAAAA=');
    const record = memoryRecord({ tenantId: 't', endUserId: 'u' }, 'm1', 3, { eventTimes: [mention(10, 20)] });
    expect(timesFromBytes(toMemoryDocument(record).timesBytes)).to.deep.equal({ createdAt: record.createdAt, eventTimes: [{ start: 10, end: 20 }] });
  });

  it('turns an instant (end <= start) into the point [start, start]', () => {
    expect(eventRanges([mention(5, 5), mention(9, 3)])).to.deep.equal([{ gte: 5, lte: 5 }, { gte: 9, lte: 9 }]);
  });

  it('derives document ids that keep scopes apart however their ids join', () => {
    expect(documentId('a/x', 'y', 'm')).to.not.equal(documentId('a', 'x/y', 'm'));
    expect(documentId('a', 'b', 'm')).to.equal(documentId('a', 'b', 'm'));
    expect(documentId('a', 'b', 'm'.repeat(2_000))).to.have.length(43);
  });
});
