import { expect } from 'chai';
import { analyseQuery } from './query-analysis.js';
import { RECIPES, forcedRecipe, strategiesFor } from './recipes.js';
import { RERANKERS } from './rerankers/index.js';

const at = { now: Date.UTC(2024, 5, 12, 12), timeZone: 'UTC' };

describe('query analysis and recipes', () => {
  it('routes a plain question to the semantic path and the entity spans to entity_anchor', () => {
    const analysis = analyseQuery('What does Caroline think about adoption?', at);
    expect(analysis.identifiers).to.deep.equal([]);
    expect(analysis.timeRange).to.equal(null);
    expect(analysis.entityKeys).to.include('caroline');
    expect(analysis.entityKeys).to.not.include('what');
    expect(strategiesFor(RECIPES.automatic, analysis)).to.deep.equal(['entity_anchor', 'centroid_aware']);
  });

  it('adds temporal_range and a time filter for a time expression', () => {
    const analysis = analyseQuery('what did I cook last week', at);
    expect(new Date(analysis.timeRange!.from).toISOString()).to.equal('2024-06-03T00:00:00.000Z');
    expect(strategiesFor(RECIPES.automatic, analysis)).to.include('temporal_range');
    expect(RECIPES.automatic.semantic.timeFilter).to.equal(true);
  });

  it('reads "the week before 9 June 2023" as relative to that date, "the day before the party" as relative to an event', () => {
    const dated = analyseQuery('what happened the week before 9 June 2023', at);
    expect(dated.relativeToEvent).to.equal(null);
    expect((dated.timeRange!.from + dated.timeRange!.to) / 2).to.equal(Date.UTC(2023, 5, 2));
    const party = analyseQuery('what did I cook the day before the party', at);
    expect(party.timeRange).to.equal(null);
    expect(party.relativeToEvent).to.deep.include({ event: 'party', amount: 1, unit: 'day' });
    expect(strategiesFor(RECIPES.automatic, party)).to.include('temporal_range');
  });

  it('answers a bare identifier by direct lookup alone (no embedding)', () => {
    const analysis = analyseQuery('ORD-2024-1187', at);
    expect(analysis.identifiersOnly).to.equal(true);
    expect(strategiesFor(RECIPES.automatic, analysis)).to.deep.equal(['direct_lookup', 'entity_anchor']);
    const mixed = analyseQuery('where is my parcel ORD-2024-1187', at);
    expect(mixed.identifiersOnly).to.equal(false);
    expect(strategiesFor(RECIPES.automatic, mixed)).to.include.members(['direct_lookup', 'centroid_aware']);
  });

  it('runs a forced strategy alone', () => {
    const forced = forcedRecipe('temporal_range');
    expect(strategiesFor(forced, analyseQuery('Caroline last week ORD-2024-1187', at))).to.deep.equal(['temporal_range']);
    expect(strategiesFor(forced, analyseQuery('a plain question', at))).to.deep.equal(['temporal_range']);
    expect(forced.semantic.timeFilter).to.equal(false);
  });

  it('lists the rerankers that read vectors before those that read records, the order they run in', () => {
    for (const recipe of [...Object.values(RECIPES), forcedRecipe('centroid_aware')]) {
      const kinds = recipe.rerankers.map((name) => RERANKERS[name].reads);
      expect(kinds.indexOf('records') === -1 || kinds.lastIndexOf('vectors') < kinds.indexOf('records'), recipe.name).to.equal(true);
    }
  });

  it('sets the routing of each mode', () => {
    const analysis = analyseQuery('how do I usually spend my weekends', at);
    expect(RECIPES.conceptual.semantic.centroidMode).to.equal('META');
    expect(strategiesFor(RECIPES.conceptual, analysis)).to.deep.equal(['centroid_aware']);
    expect(strategiesFor(RECIPES.conceptual, analyseQuery('ORD-2024-1187', at))).to.deep.equal(['centroid_aware']);
    expect(RECIPES.factual.semantic.centroidMode).to.equal('SPECIFIC');
    expect(RECIPES.hybrid.rerankers).to.include('sentiment');
    expect(RECIPES.automatic.rerankers).to.not.include('sentiment');
  });
});
