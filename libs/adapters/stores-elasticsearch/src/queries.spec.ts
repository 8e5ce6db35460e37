import { expect } from 'chai';
import { cosineFromScore, createdNearRequest, filterClauses, identifiersRequest, idsPageRequest, inRangeQuery, knnSearchRequest, numCandidates, textSearchRequest, timeRangeFilter } from './queries.js';

const scope = { tenantId: 'acme', endUserId: 'u1' };
const vector = Float32Array.from([0.6, 0.8]);

describe('knn query', () => {
  it('puts the tenant and end-user filter inside the knn clause, not around it', () => {
    const request = knnSearchRequest('memory-memories', scope, { vector, k: 5 }, 100);
    expect(request).to.not.have.any.keys('query', 'post_filter');
    const knn = request.knn as { filter: unknown[]; k: number; num_candidates: number; query_vector: number[]; field: string };
    expect(knn.field).to.equal('vector');
    expect(knn.filter).to.deep.equal([{ term: { tenantId: 'acme' } }, { term: { endUserId: 'u1' } }]);
    expect(knn.k).to.equal(5);
    expect(request.size).to.equal(5);
    expect(knn.query_vector).to.deep.equal(Array.from(vector));
  });

  it('adds the time range to the same knn filter, so it applies before k', () => {
    const request = knnSearchRequest('i', scope, { vector, k: 1, timeRange: { from: 10, to: 20 } }, 100);
    const filter = (request.knn as { filter: unknown[] }).filter;
    expect(filter).to.have.length(3);
    expect(filter[2]).to.deep.equal(timeRangeFilter({ from: 10, to: 20 }));
  });

  it('puts the memory filter in the same knn filter (not a post_filter), metadata on the flattened metadataText', () => {
    const request = knnSearchRequest('i', scope, { vector, k: 3, filter: { memoryTypes: ['fact'], metadata: { project: ['apollo', 'gemini'] } } }, 100);
    expect(request).to.not.have.any.keys('query', 'post_filter');
    expect((request.knn as { filter: unknown[] }).filter.slice(2)).to.deep.equal([{ terms: { memoryType: ['fact'] } }, { terms: { 'metadataText.project': ['apollo', 'gemini'] } }]);
  });

  it('finds the memories created near others with one kNN, the merged windows in its filter, scored and timed', () => {
    const request = createdNearRequest('i', scope, { instants: [1_000, 0, 10_000], windowMs: 500, limit: 600, vector, filter: { memoryTypes: ['fact'] } });
    expect(request).to.not.have.any.keys('query', 'post_filter', 'sort');
    const knn = request.knn as { filter: unknown[]; k: number; num_candidates: number; query_vector: number[] };
    expect(knn.k).to.equal(600);
    expect(knn.num_candidates, 'no more candidates than neighbours read').to.equal(600);
    expect(knn.query_vector).to.deep.equal(Array.from(vector));
    const range = (gte: number, lte: number) => ({ range: { createdAt: { gte, lte, format: 'epoch_millis' } } });
    expect(knn.filter).to.deep.equal([
      { term: { tenantId: 'acme' } },
      { term: { endUserId: 'u1' } },
      { terms: { memoryType: ['fact'] } },
      { bool: { minimum_should_match: 1, should: [range(-500, 1_500), range(9_500, 10_500)] } },
    ]);
    expect(request.size).to.equal(600);
    expect(request.docvalue_fields).to.deep.equal(['id', { field: 'createdAt', format: 'epoch_millis' }]);
  });

  it('turns any into a bool should of one match at least and not into a bool must_not', () => {
    expect(filterClauses({ any: [{ jobIds: ['j1'] }, {}], not: { memoryTypes: ['image'] } })).to.deep.equal([
      { bool: { should: [{ bool: { filter: [{ terms: { jobId: ['j1'] } }] } }, { bool: { filter: [] } }], minimum_should_match: 1 } },
      { bool: { must_not: [{ bool: { filter: [{ terms: { memoryType: ['image'] } }] } }] } },
    ]);
  });

  it('matches event ranges that intersect [from, to), else a creation time inside it', () => {
    expect(timeRangeFilter({ from: 10, to: 20 })).to.deep.equal({
      bool: {
        minimum_should_match: 1,
        should: [
          { range: { eventRanges: { gte: 10, lt: 20, relation: 'intersects', format: 'epoch_millis' } } },
          { bool: { must_not: [{ exists: { field: 'eventRanges' } }], filter: [{ range: { createdAt: { gte: 10, lt: 20, format: 'epoch_millis' } } }] } },
        ],
      },
    });
  });

  it('leaves infinite bounds open instead of sending a value JSON cannot carry', () => {
    const filter = JSON.stringify(timeRangeFilter({ from: -Infinity, to: 20 }));
    expect(filter).to.not.contain('gte').and.to.not.contain('null');
    expect(filter).to.contain('"lt":20');
  });

  it('asks at least minCandidates and ten per result, never more than 10,000', () => {
    expect(numCandidates(5, 100)).to.equal(100);
    expect(numCandidates(50, 100)).to.equal(500);
    expect(numCandidates(5_000, 100)).to.equal(10_000);
    const capped = knnSearchRequest('i', scope, { vector, k: 50_000 }, 100).knn as { k: number; num_candidates: number };
    expect(capped).to.include({ k: 10_000, num_candidates: 10_000 });
  });

  it('turns Elasticsearch\'s (1 + cos) / 2 score back into the cosine', () => {
    expect(cosineFromScore(1)).to.equal(1);
    expect(cosineFromScore(0.5)).to.equal(0);
    expect(cosineFromScore(0)).to.equal(-1);
  });

  it('pages ids in id order from the last id seen, within the scope', () => {
    const first = idsPageRequest('i', scope, 1000, undefined);
    expect(first).to.not.have.property('search_after');
    expect(first.query).to.deep.equal({ bool: { filter: [{ term: { tenantId: 'acme' } }, { term: { endUserId: 'u1' } }] } });
    expect(idsPageRequest('i', scope, 1000, 'm9').search_after).to.deep.equal(['m9']);
  });
});

describe('lexical and time queries', () => {
  const scopeFilter = [{ term: { tenantId: 'acme' } }, { term: { endUserId: 'u1' } }];

  it('matches any of the weighted terms, within the scope and the time range', () => {
    const boosts = new Map([['paint', 0.8], ['lake', 1.2]]);
    const request = textSearchRequest('i', scope, { k: 7, timeRange: { from: 10, to: 20 } }, boosts);
    expect(request.query).to.deep.equal({
      bool: {
        should: [{ term: { lexicalTerms: { value: 'paint', boost: 0.8 } } }, { term: { lexicalTerms: { value: 'lake', boost: 1.2 } } }],
        minimum_should_match: 1,
        filter: [...scopeFilter, timeRangeFilter({ from: 10, to: 20 })],
      },
    });
    expect(request.size).to.equal(7);
    const one = new Map([['x', 1]]);
    expect(textSearchRequest('i', scope, { k: 50_000 }, one).size).to.equal(10_000);
    expect((textSearchRequest('i', scope, { k: 1 }, one).query as { bool: { filter: unknown[] } }).bool.filter).to.deep.equal(scopeFilter);
  });

  it('looks identifiers up as exact keywords, newest first, at most limit', () => {
    const request = identifiersRequest('i', scope, ['ord-1', 'job-2'], 3);
    expect(request.query).to.deep.equal({ bool: { filter: [...scopeFilter, { terms: { identifiers: ['ord-1', 'job-2'] } }] } });
    expect(request.sort).to.deep.equal([{ createdAt: 'desc' }, { id: 'asc' }]);
    expect(request.size).to.equal(3);
  });

  it('selects a time range with the knn time filter', () => {
    expect(inRangeQuery(scope, { from: 1, to: 2 })).to.deep.equal({ bool: { filter: [...scopeFilter, timeRangeFilter({ from: 1, to: 2 })] } });
  });
});
