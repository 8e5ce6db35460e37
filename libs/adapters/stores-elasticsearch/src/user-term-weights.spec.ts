import { expect } from 'chai';
import { bm25Idf } from '@memory/lexical';
import { indexTermStatsRequest, readTermStats, searchPreference, userTermBoosts, userTermStatsRequest } from './user-term-weights.js';

describe('per end user term weights', () => {
  it('asks the user\'s counts of every term in one search of no hits, and the index\'s as Lucene scores with them, from the same shard copy', () => {
    const scope = { tenantId: 'acme', endUserId: 'u1' };
    const preference = searchPreference(scope);
    expect(preference).to.equal(searchPreference({ ...scope })).and.not.equal(searchPreference({ ...scope, endUserId: 'u2' }));
    expect(preference.startsWith('_'), 'a custom preference, not one of Elasticsearch\'s own').to.equal(false);
    const request = userTermStatsRequest('memory-memories', scope, ['melani', 'paint'], preference);
    expect(request.size).to.equal(0);
    expect(request.preference).to.equal(preference);
    expect(request.query).to.deep.equal({ bool: { filter: [{ term: { tenantId: 'acme' } }, { term: { endUserId: 'u1' } }] } });
    expect(request.aggs).to.deep.equal({ user: { filters: { filters: { t0: { term: { lexicalTerms: 'melani' } }, t1: { term: { lexicalTerms: 'paint' } } } } } });
    const index = indexTermStatsRequest('memory-memories', ['melani', 'paint'], preference);
    expect(index).to.deep.include({ doc: { lexicalTerms: 'melani paint' }, fields: ['lexicalTerms'], term_statistics: true, field_statistics: true, preference });
  });

  it('reads the user\'s counts from the search and the index\'s from the term vectors (0 for a term no document holds)', () => {
    const user = { hits: { total: { value: 400, relation: 'eq' }, hits: [] }, aggregations: { user: { buckets: { t0: { doc_count: 200 }, t1: { doc_count: 0 } } } } } as never;
    const index = { term_vectors: { lexicalTerms: { field_statistics: { doc_count: 4000, sum_doc_freq: 9000, sum_ttf: 9500 }, terms: { melani: { doc_freq: 230, ttf: 240, term_freq: 1 } } } } } as never;
    expect(readTermStats(user, index, ['melani', 'zeppelin'])).to.deep.equal({ userDocuments: 400, indexDocuments: 4000, userFrequencies: [200, 0], indexFrequencies: [230, 0] });
  });

  it('turns the index\'s idf into the user\'s, and leaves out terms the user never wrote', () => {
    // A name in 200 of the user's 400 memories, and in those 200 only of the index's 4,000.
    const stats = { userDocuments: 400, indexDocuments: 4000, userFrequencies: [200, 4, 0], indexFrequencies: [200, 40, 7] };
    const boosts = userTermBoosts(['melani', 'horse', 'zeppelin'], stats);
    expect([...boosts.keys()]).to.deep.equal(['melani', 'horse']);
    expect(boosts.get('melani')! * bm25Idf(4000, 200)).to.be.closeTo(bm25Idf(400, 200), 1e-12);
    expect(boosts.get('horse')! * bm25Idf(4000, 40)).to.be.closeTo(bm25Idf(400, 4), 1e-12);
    expect(boosts.get('melani')).to.be.lessThan(0.25);
  });
});
