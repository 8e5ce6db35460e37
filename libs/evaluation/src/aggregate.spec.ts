import { expect } from 'chai';
import { questionCounts, recallByCategory, sessionRecallByCategory, type RankedQuestion } from './aggregate.js';

describe('recall per category', () => {
  const questions: RankedQuestion[] = [
    { category: 1, evidence: ['a', 'b'], ranked: ['a', 'x', 'b'] }, // any@1, all@3
    { category: 1, evidence: ['c', 'd'], ranked: ['x', 'y', 'c'] }, // any@3 only
    { category: 2, evidence: ['e'], ranked: ['e'] },
    { category: 4, evidence: ['f'], ranked: ['x', 'y', 'z'] },
  ];

  it('gives any@k and all@k per category for every k', () => {
    const figures = recallByCategory(questions, [1, 3]);
    expect(figures['1']).to.deep.equal({ 'any@1': 0.5, 'all@1': 0, 'any@3': 1, 'all@3': 0.5 });
    expect(figures['2']).to.deep.equal({ 'any@1': 1, 'all@1': 1, 'any@3': 1, 'all@3': 1 });
    expect(figures['4']).to.deep.equal({ 'any@1': 0, 'all@1': 0, 'any@3': 0, 'all@3': 0 });
  });

  it('pools all questions for "all", each question weighing the same', () => {
    expect(recallByCategory(questions, [3])['all']).to.deep.equal({ 'any@3': 3 / 4, 'all@3': 2 / 4 });
  });

  it('has no figure (null) for a category without questions', () => {
    expect(recallByCategory(questions, [3])['3']).to.deep.equal({ 'any@3': null, 'all@3': null });
  });

  it('counts questions per category and in all', () => {
    expect(questionCounts(questions)).to.deep.equal({ 1: 2, 2: 1, 3: 0, 4: 1, all: 4 });
  });
});

describe('session recall per category', () => {
  const questions: RankedQuestion[] = [
    { category: 1, evidence: ['D2:1', 'D5:3'], ranked: ['D1:1', 'D1:2', 'D3:1', 'D4:1', 'D6:1', 'D7:1', 'D5:9'] }, // sixth session: R@10 only
    { category: 1, evidence: ['D2:4'], ranked: ['D2:1'] }, // the session, another turn of it
    { category: 2, evidence: ['D3:3'], ranked: ['D1:1', 'D3:3'] },
    { category: 2, evidence: ['D3:3'], ranked: ['D1:1'] },
    { category: 2, evidence: ['D3:3'], ranked: ['D1:1'] },
    { category: 4, evidence: ['D9:1'], ranked: ['D9:2'] },
  ];

  it('gives R@k per category for every k', () => {
    const figures = sessionRecallByCategory(questions, [5, 10]);
    expect(figures['1']).to.deep.equal({ 'R@5': 0.5, 'R@10': 1 });
    expect(figures['2']).to.deep.equal({ 'R@5': 1 / 3, 'R@10': 1 / 3 });
    expect(figures['3']).to.deep.equal({ 'R@5': null, 'R@10': null });
    expect(figures['4']).to.deep.equal({ 'R@5': 1, 'R@10': 1 });
  });

  it('weighs categories by their question counts overall: the mean over all questions', () => {
    expect(sessionRecallByCategory(questions, [5, 10])['all']).to.deep.equal({ 'R@5': 3 / 6, 'R@10': 4 / 6 });
  });
});
