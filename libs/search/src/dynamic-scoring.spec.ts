import { expect } from 'chai';
import { DYNAMIC_SCORING_DEFAULTS, dynamicScore, recencyOf } from './dynamic-scoring.js';

const DAY = 24 * 3600 * 1000;

describe('dynamic scoring', () => {
  it('halves recency every half-life and never exceeds 1 for future-dated memories', () => {
    expect(recencyOf(0, DYNAMIC_SCORING_DEFAULTS.halfLifeMs)).to.be.closeTo(0.5, 1e-9);
    expect(recencyOf(10 * DAY, 0)).to.equal(1);
  });

  it('keeps the relevance of a fresh user-written memory', () => {
    const now = 100 * DAY;
    expect(dynamicScore(0.8, { kind: 'text', createdAt: now }, now).finalScore).to.be.closeTo(0.8, 1e-9);
  });

  it('prefers the recent memory between two equally relevant ones', () => {
    const now = 400 * DAY;
    const fresh = dynamicScore(0.7, { kind: 'text', createdAt: now - DAY }, now);
    const old = dynamicScore(0.7, { kind: 'text', createdAt: now - 365 * DAY }, now);
    expect(fresh.finalScore).to.be.greaterThan(old.finalScore);
  });

  it('never lets the factors bury a clearly better match', () => {
    const now = 400 * DAY;
    const oldButRelevant = dynamicScore(0.9, { kind: 'image', createdAt: 0 }, now);
    const freshButWeak = dynamicScore(0.6, { kind: 'text', createdAt: now }, now);
    expect(oldButRelevant.finalScore).to.be.greaterThan(freshButWeak.finalScore);
  });

  it('stays within 0..1', () => {
    expect(dynamicScore(1.5, { kind: 'text', createdAt: 0 }, 0).finalScore).to.equal(1);
    expect(dynamicScore(-0.2, { kind: 'text', createdAt: 0 }, 0).finalScore).to.equal(0);
  });
});
