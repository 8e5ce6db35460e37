import { expect } from 'chai';
import { resolveElasticsearchStoresOptions } from './options.js';
import { centroidMemberMapping, idempotencyMapping, indexTemplates, memoryMapping, SCHEMA_VERSION, webhookDeliveryMapping } from './templates.js';

const settings = (overrides = {}) => resolveElasticsearchStoresOptions({ node: 'http://127.0.0.1:9200', dims: 384, ...overrides });

describe('index templates', () => {
  it('maps the vector as an indexed cosine dense_vector of the embedder\'s dims with float HNSW options', () => {
    const vector = memoryMapping(settings({ hnsw: { m: 24, efConstruction: 200 } })).properties!['vector'];
    expect(vector).to.deep.equal({
      type: 'dense_vector',
      dims: 384,
      index: true,
      similarity: 'cosine',
      index_options: { type: 'hnsw', m: 24, ef_construction: 200 },
    });
  });

  it('maps the scope and the filterable metadata as keywords, and times as epoch-millis dates and date ranges', () => {
    const properties = memoryMapping(settings()).properties!;
    for (const field of ['id', 'tenantId', 'endUserId', 'jobId', 'memoryType', 'themes', 'mentionedTitles', 'embeddingModel']) {
      expect(properties[field], field).to.deep.equal({ type: 'keyword' });
    }
    expect(properties['createdAt']).to.deep.equal({ type: 'date', format: 'epoch_millis' });
    expect(properties['eventRanges']).to.deep.equal({ type: 'date_range', format: 'epoch_millis' });
    expect(properties['eventTimes']).to.deep.equal({ type: 'object', enabled: false });
  });

  it('maps the pre-analysed lexical terms as whitespace-split BM25 text and the identifiers as keywords (schema 2)', () => {
    const mapping = memoryMapping(settings());
    expect(mapping.properties!['lexicalTerms']).to.deep.equal({ type: 'text', analyzer: 'whitespace', index_options: 'freqs' });
    expect(mapping.properties!['identifiers']).to.deep.equal({ type: 'keyword' });
  });

  it('maps the metadata values, as strings, in one flattened field (schema 3)', () => {
    const mapping = memoryMapping(settings());
    expect(mapping.properties!['metadataText']).to.deep.equal({ type: 'flattened' });
    expect(mapping._meta).to.deep.equal({ schemaVersion: SCHEMA_VERSION, dims: 384 });
  });

  it('maps the end user of a webhook delivery, so an erasure finds theirs (schema 4)', () => {
    expect(webhookDeliveryMapping().properties!['endUserId']).to.deep.equal({ type: 'keyword' });
  });

  it('keeps each memory\'s vector, and its creation and event times, as binary doc values too, out of _source (schemas 5 and 6)', () => {
    expect(SCHEMA_VERSION).to.be.at.least(6);
    const mapping = memoryMapping(settings());
    expect(mapping.properties!['vectorBytes']).to.deep.equal({ type: 'binary', doc_values: true });
    expect(mapping.properties!['timesBytes']).to.deep.equal({ type: 'binary', doc_values: true });
    expect(mapping._source).to.deep.equal({ excludes: ['vectorBytes', 'timesBytes'] });
  });

  it('gives each index a composable template whose only pattern is the index name itself', () => {
    const templates = indexTemplates(settings({ prefix: 'memory-a' }));
    expect(templates.map((t) => t.name)).to.deep.equal(['memory-a-memories', 'memory-a-centroids', 'memory-a-centroid-members', 'memory-a-jobs', 'memory-a-keys', 'memory-a-idempotency', 'memory-a-webhooks', 'memory-a-webhook-deliveries', 'memory-a-webhook-jobs']);
    for (const { name, request } of templates) {
      expect(request.name).to.equal(name);
      expect(request.index_patterns).to.deep.equal([name]);
      expect(request.template?.mappings?.dynamic).to.equal(false);
    }
  });

  it('keeps the data key in _source only, never in an indexed field', () => {
    const keys = indexTemplates(settings({ prefix: 'memory-a' })).find((t) => t.name === 'memory-a-keys')!;
    expect(Object.keys(keys.request.template!.mappings!.properties!)).to.not.include('key');
  });

  it('has an expunging merge take every segment holding a deleted memory, key, centroid, job, idempotency or webhook record, in new indices and as older ones migrate (schemas 7, 9)', () => {
    expect(SCHEMA_VERSION).to.be.at.least(9);
    const templates = indexTemplates(settings({ prefix: 'memory-a' }));
    const expunging = templates.filter((t) => t.request.template!.settings!['merge.policy.expunge_deletes_allowed'] === 0).map((t) => t.name);
    expect(expunging).to.deep.equal(['memories', 'centroids', 'jobs', 'keys', 'idempotency', 'webhooks', 'webhook-deliveries', 'webhook-jobs'].map((kind) => `memory-a-${kind}`));
    expect(templates.filter((t) => t.migratedSettings).map((t) => [t.name, t.migratedSettings])).to.deep.equal(
      expunging.map((name) => [name, { 'merge.policy.expunge_deletes_allowed': 0 }]),
    );
  });

  it('maps the job an idempotency record names, so forgetting the job finds it; the fingerprint and the answer stay unindexed (schema 8)', () => {
    expect(SCHEMA_VERSION).to.be.at.least(8);
    const properties = idempotencyMapping().properties!;
    expect(properties['jobId']).to.deep.equal({ type: 'keyword' });
    expect(Object.keys(properties).sort()).to.deep.equal(['endUserId', 'expiresAt', 'jobId', 'tenantId']);
  });

  it('maps the job a webhook delivery is about and its accept time, so forgetting the job or an erasure finds it; the body stays unindexed (schema 9)', () => {
    expect(SCHEMA_VERSION).to.be.at.least(9);
    const properties = webhookDeliveryMapping().properties!;
    expect(properties['jobId']).to.deep.equal({ type: 'keyword' });
    expect(properties['jobAcceptedAt']).to.deep.equal({ type: 'long' });
    expect(Object.keys(properties)).to.not.include('body');
  });

  it('maps the generation of a centroid member, so a replace finds what the centroid it replaced counted (schema 10)', () => {
    expect(SCHEMA_VERSION).to.equal(10);
    expect(Object.keys(centroidMemberMapping().properties!).sort()).to.deep.equal(['endUserId', 'generation', 'memoryId', 'tenantId']);
  });

  it('sets shards, replicas (auto-expanding by default) and the memories refresh interval from the options', () => {
    const [memories, centroids] = indexTemplates(settings({ refreshInterval: '500ms' }));
    expect(memories!.request.template!.settings).to.deep.equal({ number_of_shards: 1, auto_expand_replicas: '0-1', refresh_interval: '500ms', 'merge.policy.expunge_deletes_allowed': 0 });
    expect(centroids!.request.template!.settings).to.deep.equal({ number_of_shards: 1, auto_expand_replicas: '0-1', 'merge.policy.expunge_deletes_allowed': 0 });
    const [fixed] = indexTemplates(settings({ shards: 3, replicas: 2 }));
    expect(fixed!.request.template!.settings).to.include({ number_of_shards: 3, number_of_replicas: 2 });
  });
});
