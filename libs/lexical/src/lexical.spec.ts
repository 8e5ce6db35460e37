import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { analyseMemory, Bm25Index, bm25Idf, findIdentifiers, LEXICAL_ANALYSIS_VERSION, lexicalTerms } from './index.js';

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
  it('uses Lucene\'s idf', () => {
    expect(bm25Idf(10, 1)).to.be.closeTo(Math.log(1 + 9.5 / 1.5), 1e-12);
  });

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

describe('BM25 index against a plain reference', () => {
  /** The textbook formula over plain maps, for comparison with the slot-based index. */
  function referenceSearch(docs: Map<string, string[]>, query: string[], k: number) {
    const n = docs.size;
    const avg = [...docs.values()].reduce((s, t) => s + t.length, 0) / n;
    const scores = new Map<string, number>();
    for (const term of new Set(query)) {
      const holders = [...docs].filter(([, terms]) => terms.includes(term));
      const idf = Math.log(1 + (n - holders.length + 0.5) / (holders.length + 0.5));
      for (const [id, terms] of holders) {
        const tf = terms.filter((t) => t === term).length;
        const norm = 1.2 * (1 - 0.75 + (0.75 * terms.length) / avg);
        scores.set(id, (scores.get(id) ?? 0) + (idf * tf * 2.2) / (tf + norm));
      }
    }
    return [...scores].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, k);
  }

  it('ranks exactly as the formula after adds, replacements and removals that reuse slots', () => {
    let seed = 11;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const vocabulary = Array.from({ length: 40 }, (_, i) => `w${i}`);
    const draw = () => Array.from({ length: 1 + Math.floor(random() * 12) }, () => vocabulary[Math.floor(random() * random() * vocabulary.length)]!);
    const index = new Bm25Index();
    const docs = new Map<string, string[]>();
    for (let step = 0; step < 3000; step++) {
      const id = `d${Math.floor(random() * 400)}`;
      if (random() < 0.2) {
        index.remove(id);
        docs.delete(id);
      } else {
        const terms = draw();
        index.add(id, terms);
        docs.set(id, terms);
      }
    }
    expect(index.size).to.equal(docs.size);
    for (let q = 0; q < 50; q++) {
      const query = draw().slice(0, 4);
      const expected = referenceSearch(docs, query, 15);
      const actual = index.search(query, 15);
      expect(actual.map((h) => h.id)).to.deep.equal(expected.map(([id]) => id));
      actual.forEach((hit, i) => expect(hit.score).to.be.closeTo(expected[i]![1], 1e-9));
    }
  });
});

describe('lexical analysis version', () => {
  // Stores keep analyses made under LEXICAL_ANALYSIS_VERSION. When this fingerprint changes, the analysis changed:
  // bump the version (stored analyses are then made again) and record the new fingerprint here.
  const FINGERPRINTS: Record<number, string> = { 1: '1d3dc287a78501ab' };
  const sample = [
    "Caroline's café: we painted 3 murals, ORD-2024-1187, #4512, jo@example.com — Jürgen's naïve résumé",
    'I was running, he runs; they ran to the stations and the stationery shops on 2023-05-08 at 10:30',
    'The quick brown foxes jumped over the lazy dogs while singing "Hereditary" loudly',
  ];

  it('matches the fingerprint recorded for the current version', () => {
    const analysed = sample.map((content, i) => analyseMemory({ id: `m${i}`, jobId: `job-${i}`, content, originalContent: content, userContext: null }));
    const fingerprint = createHash('sha256').update(JSON.stringify(analysed)).digest('hex').slice(0, 16);
    expect(analysed.every((a) => a.version === LEXICAL_ANALYSIS_VERSION)).to.equal(true);
    expect(fingerprint, `the analysis changed: bump LEXICAL_ANALYSIS_VERSION and record ${fingerprint}`).to.equal(FINGERPRINTS[LEXICAL_ANALYSIS_VERSION]);
  });
});
