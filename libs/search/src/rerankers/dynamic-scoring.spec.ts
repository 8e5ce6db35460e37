import { expect } from 'chai';
import { DYNAMIC_SCORING_DEFAULTS, dynamicScore, recencyOf, statementShare } from './dynamic-scoring.js';

const DAY = 24 * 3600 * 1000;

describe('dynamic scoring', () => {
  it('halves recency every half-life and never exceeds 1 for future-dated memories', () => {
    expect(recencyOf(0, DYNAMIC_SCORING_DEFAULTS.halfLifeMs)).to.be.closeTo(0.5, 1e-9);
    expect(recencyOf(10 * DAY, 0)).to.equal(1);
  });

  it('keeps the relevance of a fresh user-written memory', () => {
    const now = 100 * DAY;
    expect(dynamicScore(0.8, { kind: 'text', originalContent: 'I moved to Lisbon.', createdAt: now }, now).finalScore).to.be.closeTo(0.8, 1e-9);
  });

  it('prefers the recent memory between two equally relevant ones', () => {
    const now = 400 * DAY;
    const fresh = dynamicScore(0.7, { kind: 'text', originalContent: 'I moved to Lisbon.', createdAt: now - DAY }, now);
    const old = dynamicScore(0.7, { kind: 'text', originalContent: 'I moved to Lisbon.', createdAt: now - 365 * DAY }, now);
    expect(fresh.finalScore).to.be.greaterThan(old.finalScore);
  });

  it('never lets the factors bury a clearly better match', () => {
    const now = 400 * DAY;
    const oldButRelevant = dynamicScore(0.9, { kind: 'image', originalContent: 'a harbour at dusk', createdAt: 0 }, now);
    const freshButWeak = dynamicScore(0.6, { kind: 'text', originalContent: 'I moved to Lisbon.', createdAt: now }, now);
    expect(oldButRelevant.finalScore).to.be.greaterThan(freshButWeak.finalScore);
  });

  it('trusts a memory that asks less than one that states, in proportion to its sentences that ask', () => {
    expect(statementShare('Melanie: What gave you the idea for all the colors and patterns?')).to.equal(0);
    expect(statementShare('I lost my job at Door Dash this month. It was a shock! What business are you thinking of?')).to.be.closeTo(2 / 3, 1e-9);
    expect(statementShare('Here is my painting! [shared image: is it a sunset? a photo]')).to.equal(1);
    expect(statementShare('')).to.equal(1);
    const now = 10 * DAY;
    const asks = dynamicScore(0.8, { kind: 'text', originalContent: 'Where did you go camping?', createdAt: now }, now);
    const states = dynamicScore(0.8, { kind: 'text', originalContent: 'We went camping at Big Sur.', createdAt: now }, now);
    expect(asks.authority).to.equal(0);
    expect(states.authority).to.equal(1);
    expect(asks.finalScore).to.be.closeTo(0.8 * (1 - DYNAMIC_SCORING_DEFAULTS.authorityWeight), 1e-9);
  });

  it('stays within 0..1', () => {
    expect(dynamicScore(1.5, { kind: 'text', originalContent: 'I moved to Lisbon.', createdAt: 0 }, 0).finalScore).to.equal(1);
    expect(dynamicScore(-0.2, { kind: 'text', originalContent: 'I moved to Lisbon.', createdAt: 0 }, 0).finalScore).to.equal(0);
  });
});
