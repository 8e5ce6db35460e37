import { expect } from 'chai';
import { bm25Idf } from '@memory/lexical';
import { termStatsRequest, userTermBoosts } from './user-term-weights.js';

describe('per end user term weights', () => {
  it('asks the user\'s and the index\'s counts of every term in one request of no hits', () => {
    const request = termStatsRequest('memory-memories', { tenantId: 'acme', endUserId: 'u1' }, ['melani', 'paint']);
    expect(request.size).to.equal(0);
    expect(request.query).to.deep.equal({ bool: { filter: [{ term: { tenantId: 'acme' } }, { term: { endUserId: 'u1' } }] } });
    const filters = { t0: { term: { lexicalTerms: 'melani' } }, t1: { term: { lexicalTerms: 'paint' } } };
    expect(request.aggs).to.deep.equal({
      user: { filters: { filters } },
      index: { global: {}, aggs: { documents: { filter: { exists: { field: 'lexicalTerms' } } }, terms: { filters: { filters } } } },
    });
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
