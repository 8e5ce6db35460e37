import { expect } from 'chai';
import { formatConversationTable, formatRecallTable, formatSessionRecallTable, questionCounts, recallByCategory, sessionRecallByCategory, type RankedQuestion } from './index.js';

describe('recall table', () => {
  it('has a row per system and k, any and all per category, "-" where a category has no questions', () => {
    const questions: RankedQuestion[] = [{ category: 1, evidence: ['a'], ranked: ['a'] }];
    const text = formatRecallTable({
      systems: [
        { name: 'system', figures: recallByCategory(questions, [5, 10]) },
        { name: 'bm25', figures: recallByCategory([{ ...questions[0]!, ranked: [] }], [5, 10]) },
      ],
      counts: questionCounts(questions),
      ks: [5, 10],
    });
    const lines = text.split('\n');
    expect(lines[0]).to.match(/^recall\s+1 multi-hop\s+2 temporal\s+3 open-domain\s+4 single-hop\s+all$/);
    expect(lines[1]).to.match(/^questions\s+n=1\s+n=0\s+n=0\s+n=0\s+n=1$/);
    expect(lines.slice(3).map((l) => l.trim().split(/\s+/).slice(0, 4).join(' '))).to.deep.equal([
      '@5 system 1.000 1.000',
      'bm25 0.000 0.000 -',
      '@10 system 1.000 1.000',
      'bm25 0.000 0.000 -',
    ]);
  });
});

describe('session recall table', () => {
  it('has one row per system and per category a column per k', () => {
    const questions: RankedQuestion[] = [{ category: 2, evidence: ['D1:1'], ranked: ['D1:5'] }];
    const text = formatSessionRecallTable({
      systems: [
        { name: 'system', figures: sessionRecallByCategory(questions, [5, 10]) },
        { name: 'bm25', figures: sessionRecallByCategory([{ ...questions[0]!, ranked: [] }], [5, 10]) },
      ],
      counts: questionCounts(questions),
      ks: [5, 10],
    });
    const lines = text.split('\n').map((l) => l.trim().split(/\s+/).join(' '));
    expect(lines).to.deep.equal([
      'session 1 multi-hop 2 temporal 3 open-domain 4 single-hop all',
      'questions n=0 n=1 n=0 n=0 n=1',
      'R@5 R@10 R@5 R@10 R@5 R@10 R@5 R@10 R@5 R@10',
      'system - - 1.000 1.000 - - - - 1.000 1.000',
      'bm25 - - 0.000 0.000 - - - - 0.000 0.000',
    ]);
  });
});

describe('per-conversation table', () => {
  it('has a column per conversation and one for all, a block per headline measure with a row per system', () => {
    const figures = (x: number | null) => ({ 'any@10': x, 'all@10': x, 'temporal any@10': x, 'session R@5': x });
    const text = formatConversationTable({
      conversations: [
        { name: '26', questions: 150, temporal: 30 },
        { name: '30', questions: 80, temporal: 0 },
      ],
      systems: [
        { name: 'system', perConversation: [figures(0.9), figures(null)], all: figures(0.85) },
        { name: 'bm25', perConversation: [figures(0.7), figures(0.6)], all: figures(0.65) },
      ],
    });
    const lines = text.split('\n').map((l) => l.trim().split(/\s+/).join(' '));
    expect(lines).to.deep.equal([
      'conversation 26 30 all',
      'questions n=150 n=80 n=230',
      'temporal n=30 n=0 n=30',
      'any@10 system 0.900 - 0.850',
      'bm25 0.700 0.600 0.650',
      'all@10 system 0.900 - 0.850',
      'bm25 0.700 0.600 0.650',
      'temporal any@10 system 0.900 - 0.850',
      'bm25 0.700 0.600 0.650',
      'session R@5 system 0.900 - 0.850',
      'bm25 0.700 0.600 0.650',
    ]);
  });
});
