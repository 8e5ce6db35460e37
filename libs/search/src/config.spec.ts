import { expect } from 'chai';
import { requestErrorOf } from '@memory/testing';
import { searchConfig } from './config.js';
import { RECIPES, forcedRecipe } from './recipes.js';

const scope = { tenantId: 't', endUserId: 'u' };
const search = (body: unknown) => searchConfig(body, { scope, route: 'search' });
const modeSearch = (body: unknown) => searchConfig(body, { scope, route: 'mode_search' });

describe('search config', () => {
  it('builds the automatic recipe with defaults from a bare query', () => {
    expect(search({ query: 'q' })).to.deep.equal({ ...RECIPES.automatic, scope, query: 'q', limit: 5, explain: false, timeZone: 'UTC' });
  });

  it('forces a strategy, drops dynamic scoring when asked, and takes the limit and the zone', () => {
    const config = searchConfig({ query: 'q', strategy: 'temporal_range', useDynamicScoring: false, options: { limit: 100, explain: true } }, { scope, route: 'search', timeZone: 'Europe/Berlin' });
    expect(config.strategies).to.deep.equal(forcedRecipe('temporal_range').strategies);
    expect(config.rerankers).to.deep.equal(['mmr', 'speaker']);
    expect(config).to.include({ limit: 100, explain: true, timeZone: 'Europe/Berlin', name: 'forced' });
  });

  it('names the recipe by the mode on mode search, ignoring a strategy', () => {
    expect(modeSearch({ mode: 'conceptual', query: 'q', strategy: 'temporal_range' }).strategies).to.deep.equal(RECIPES.conceptual.strategies);
    expect(modeSearch({ mode: 'hybrid', query: 'q' }).rerankers).to.include('sentiment');
  });

  it('carries the filters of either route into the config', () => {
    expect(search({ query: 'q', filters: { memory_type: 'fact' } }).filter).to.deep.equal({ memoryTypes: ['fact'] });
    expect(modeSearch({ mode: 'factual', query: 'q', filters: { metadata: { project: { in: ['a', 'b'] } } } }).filter).to.deep.equal({ metadata: { project: ['a', 'b'] } });
    expect(search({ query: 'q', filters: {} })).to.not.have.property('filter');
  });

  it('answers each invalid field with its code', () => {
    expect(requestErrorOf(() => search({ query: 'q', filters: { memory_type: 1 } }))).to.equal('400 FILTER.INVALID');
    expect(requestErrorOf(() => modeSearch({ mode: 'hybrid', query: 'q', filters: { type: 'fact' } }))).to.equal('400 FILTER.UNKNOWN_FIELD');
    expect(requestErrorOf(() => search({ query: 'q', strategy: 'semantic' }))).to.equal('400 SEARCH.UNKNOWN_STRATEGY');
    expect(requestErrorOf(() => search({ query: 'q', options: { limit: 0 } }))).to.equal('400 SEARCH.INVALID_LIMIT');
    expect(requestErrorOf(() => search({ query: 'q', options: { limit: 2.5 } }))).to.equal('400 SEARCH.INVALID_LIMIT');
    expect(requestErrorOf(() => search({ query: 'q', useDynamicScoring: 'yes' }))).to.equal('400 SEARCH.INVALID_FIELD');
    expect(requestErrorOf(() => search({ query: 'q', options: { explain: 'yes' } }))).to.equal('400 SEARCH.INVALID_FIELD');
    expect(requestErrorOf(() => search({ query: 42 }))).to.equal('400 SEARCH.MISSING_QUERY');
    expect(requestErrorOf(() => search({ query: 'q'.repeat(2001) }))).to.equal('400 SEARCH.QUERY_TOO_LONG');
    expect(requestErrorOf(() => search([]))).to.equal('400 REQUEST.INVALID_BODY');
    expect(requestErrorOf(() => modeSearch({ query: 'q' }))).to.equal('400 SEARCH.MISSING_MODE');
    expect(requestErrorOf(() => modeSearch({ query: 'q', mode: 'deep' }))).to.equal('400 SEARCH.UNKNOWN_MODE');
  });
});
