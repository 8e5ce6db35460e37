import { expect } from 'chai';
import { readServiceConfig } from './config.js';

describe('readServiceConfig', () => {
  it('defaults the engine addresses to where `npm run engines:up` starts them', () => {
    const config = readServiceConfig({}, 'distributed');
    expect(config.kafka.brokers).to.deep.equal(['127.0.0.1:9092']);
    expect(config.schemaRegistry.url).to.equal('http://127.0.0.1:8081/apis/ccompat/v7');
    expect(config.elasticsearch.url).to.equal('http://127.0.0.1:9200');
    expect(config.s3.endpoint).to.equal('http://127.0.0.1:9000');
    expect(config.arango.url).to.equal(undefined);
    expect(config.embedder).to.equal('auto');
    expect(config.embeddingModel).to.equal(undefined);
  });
  it('takes MEMORY_EMBEDDING_MODEL from the models the onnx embedder knows', () => {
    expect(readServiceConfig({ MEMORY_EMBEDDING_MODEL: 'e5-small-v2-q' }, 'embedded').embeddingModel).to.equal('e5-small-v2-q');
    expect(() => readServiceConfig({ MEMORY_EMBEDDING_MODEL: 'e5-large' }, 'embedded')).to.throw(
      /MEMORY_EMBEDDING_MODEL must be one of bge-small-en-v1\.5-q, [^"]*e5-small-v2-q[^"]*, got "e5-large"/,
    );
  });
  it('reads the schema registry\'s credentials, compatibility and timeout, so a registry behind auth can be used', () => {
    const registry = readServiceConfig({ MEMORY_SCHEMA_REGISTRY_USERNAME: 'key', MEMORY_SCHEMA_REGISTRY_PASSWORD: 'secret', MEMORY_SCHEMA_REGISTRY_COMPATIBILITY: 'REGISTRY' }, 'distributed').schemaRegistry;
    expect(registry).to.deep.include({ username: 'key', password: 'secret', compatibility: false, requestTimeoutMs: 10_000 });
    expect(() => readServiceConfig({ MEMORY_SCHEMA_REGISTRY_TIMEOUT_MS: '5' }, 'distributed')).to.throw(/MEMORY_SCHEMA_REGISTRY_TIMEOUT_MS/);
  });
  it('reads the shards and replicas of the indices the service creates; replicas unset: one where a second node exists', () => {
    expect(readServiceConfig({}, 'distributed').elasticsearch).to.deep.include({ shards: 1, replicas: null });
    expect(readServiceConfig({ MEMORY_INDEX_SHARDS: '4', MEMORY_INDEX_REPLICAS: '0' }, 'distributed').elasticsearch).to.deep.include({ shards: 4, replicas: 0 });
    expect(() => readServiceConfig({ MEMORY_INDEX_SHARDS: '0' }, 'distributed')).to.throw(/MEMORY_INDEX_SHARDS/);
  });
  it('splits MEMORY_SEARCH_URL into the search apps the edge takes in turn', () => {
    expect(readServiceConfig({}, 'distributed').searchUrls).to.deep.equal(['http://127.0.0.1:8090']);
    expect(readServiceConfig({ MEMORY_SEARCH_URL: 'http://a:8090, http://b:8090,' }, 'distributed').searchUrls).to.deep.equal(['http://a:8090', 'http://b:8090']);
  });
  it('takes MEMORY_PUBLIC_URL as an http(s) address, a path prefix allowed, and refuses what is not one', () => {
    expect(readServiceConfig({}, 'embedded').publicUrl).to.equal(undefined);
    expect(readServiceConfig({ MEMORY_PUBLIC_URL: 'https://memory.example.com/api/' }, 'embedded').publicUrl).to.equal('https://memory.example.com/api');
    for (const bad of ['memory.example.com', 'ftp://memory.example.com', 'https://memory.example.com/?a=1', 'https://user:pw@memory.example.com']) {
      expect(() => readServiceConfig({ MEMORY_PUBLIC_URL: bad }, 'embedded'), bad).to.throw(/MEMORY_PUBLIC_URL must be an http or https URL/);
    }
  });
  it('splits KAFKA_BROKERS and reports every problem at once', () => {
    expect(readServiceConfig({ KAFKA_BROKERS: 'a:1, b:2' }, 'distributed').kafka.brokers).to.deep.equal(['a:1', 'b:2']);
    expect(() => readServiceConfig({ PORT: 'x', MEMORY_NAMESPACE: 'Not Valid', MEMORY_EMBEDDER: 'huggingface' }, 'embedded')).to.throw(
      /PORT must be a whole number[\s\S]*MEMORY_EMBEDDER=huggingface needs HF_TOKEN[\s\S]*MEMORY_NAMESPACE must be lowercase/,
    );
  });
});
