import { expect } from 'chai';
import { Bm25Index, findIdentifiers, lexicalTerms } from './index.js';

describe('lexical terms', () => {
  it('stems, folds accents and drops stop words and possessive endings', () => {
    expect(lexicalTerms("Caroline's paintings were shown at the Café")).to.deep.equal(['carolin', 'paint', 'shown', 'cafe']);
  });
  it('keeps numbers and mixed tokens whole', () => {
    expect(lexicalTerms('Order 4512 shipped in 2023 to room B12')).to.deep.equal(['order', '4512', 'ship', '2023', 'room', 'b12']);
  });
});

describe('identifiers', () => {
  it('finds codes, hashed numbers, e-mails and job ids', () => {
    const text = 'Ticket #4512 about ORD-2024-1187, mail jane.doe@example.com, job job_1700000000000_alice.';
    expect(findIdentifiers(text)).to.deep.equal(['4512', 'ord-2024-1187', 'jane.doe@example.com', 'job_1700000000000_alice']);
  });
  it('leaves ordinary numbers, years, times, dates and measures alone', () => {
    expect(findIdentifiers('On 8 May 2023 at 10:30, 10am, I ran 5km for the 3rd time, 2023-05-08, 1.5 hours, 80s music')).to.deep.equal([]);
  });
});

describe('BM25 index', () => {
  const index = new Bm25Index();
  index.add('a', lexicalTerms('I adopted a puppy named Max'));
  index.add('b', lexicalTerms('We went camping by the lake with the kids'));
  index.add('c', lexicalTerms('The lake was frozen, no camping this year, maybe next year, camping is fun'));
  index.add('d', lexicalTerms('My puppy chewed my shoes'));

  it('ranks by term rarity and frequency, shorter documents first on a tie', () => {
    const hits = index.search(lexicalTerms('camping at the lake'), 10);
    expect(hits.map((h) => h.id)).to.deep.equal(['b', 'c']);
    expect(index.search(lexicalTerms('Max the puppy'), 10)[0]!.id).to.equal('a');
  });
  it('replaces a document added again and forgets a removed one', () => {
    const local = new Bm25Index();
    local.add('x', ['old']);
    local.add('x', ['new']);
    expect(local.search(['old'], 5)).to.deep.equal([]);
    expect(local.search(['new'], 5).map((h) => h.id)).to.deep.equal(['x']);
    local.remove('x');
    expect(local.size).to.equal(0);
    expect(local.search(['new'], 5)).to.deep.equal([]);
  });
  it('filters before ranking and honours k', () => {
    expect(index.search(lexicalTerms('puppy'), 1, (id) => id !== 'a').map((h) => h.id)).to.deep.equal(['d']);
    expect(index.search(lexicalTerms('puppy'), 1)).to.have.length(1);
  });
});
