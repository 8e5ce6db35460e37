import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { MemoryServiceError } from '@memory/platform';
import { modelTag } from '@memory/ports';
import { onnxModel } from './model-catalog.js';
import { modelFiles, resolveModelDir } from './model-files.js';
import { createOnnxEmbedder, type OnnxEmbedder } from './onnx-embedder.js';
import { parseTokenizerJson } from './wordpiece-tokenizer.js';

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, value, i) => sum + value * (b[i] ?? 0), 0);
const norm = (a: Float32Array) => Math.sqrt(dot(a, a));
const maxDifference = (a: Float32Array, b: Float32Array) => a.reduce((max, value, i) => Math.max(max, Math.abs(value - (b[i] ?? 0))), 0);

// Real model, real runtime: these run against the files deploy/scripts/install-model.mjs puts in place.
describe('OnnxEmbedder (bge-small-en-v1.5-q)', () => {
  let embedder: OnnxEmbedder;

  before(async () => {
    embedder = await createOnnxEmbedder({ threads: 1 });
  });
  after(async () => {
    await embedder?.close();
  });

  it('describes its model', () => {
    expect(embedder.model).to.deep.equal({ name: 'bge-small-en-v1.5-q', version: '1.20.0-beta30', dimensions: 384 });
    expect(modelTag(embedder.model)).to.equal('bge-small-en-v1.5-q@1.20.0-beta30');
  });

  it('returns 384-d unit vectors, one per text, and nothing for no texts', async () => {
    const vectors = await embedder.embed(['I adopted a puppy', '', 'A much longer sentence about a walk in the park on a sunny day.'], 'passage');
    expect(vectors).to.have.length(3);
    for (const vector of vectors) {
      expect(vector).to.be.instanceOf(Float32Array);
      expect(vector).to.have.length(384);
      expect(norm(vector)).to.be.closeTo(1, 1e-5);
    }
    expect(await embedder.embed([], 'query')).to.deep.equal([]);
  });

  it('is deterministic', async () => {
    const [first] = await embedder.embed(['The meeting moved to Thursday'], 'passage');
    const [second] = await embedder.embed(['The meeting moved to Thursday'], 'passage');
    expect(Array.from(second!)).to.deep.equal(Array.from(first!));
  });

  const mixedLengths = [
    'A fairly long sentence that forces the shorter ones in its batch to be padded with many tokens.',
    'Short one.',
    'Medium length sentence here.',
    'x',
  ];

  it('gives each text the vector it gets alone, whatever else is in the call (the default)', async () => {
    const together = await embedder.embed(mixedLengths, 'passage');
    for (const [i, text] of mixedLengths.entries()) {
      const [alone] = await embedder.embed([text], 'passage');
      expect(maxDifference(together[i]!, alone!), text).to.be.below(1e-4);
    }
  });

  it('with padded batches, keeps the caller order and stays within quantisation noise of single runs', async () => {
    const batching = await createOnnxEmbedder({ threads: 1, maxBatch: 8 });
    try {
      const batched = await batching.embed(mixedLengths, 'passage');
      const alone = await embedder.embed(mixedLengths, 'passage');
      for (const [i, text] of mixedLengths.entries()) {
        expect(norm(batched[i]!)).to.be.closeTo(1, 1e-5);
        // Per-tensor activation quantisation makes batch neighbours matter a little; see OnnxEmbedderOptions.maxBatch.
        expect(dot(batched[i]!, alone[i]!), text).to.be.greaterThan(0.99);
      }
    } finally {
      await batching.close();
    }
  });

  it('puts a paraphrase nearer than an unrelated sentence', async () => {
    const [puppy, dog, market] = await embedder.embed(['I adopted a puppy', 'I got a new dog', 'The stock market fell'], 'passage');
    expect(dot(puppy!, dog!)).to.be.greaterThan(dot(puppy!, market!) + 0.2);
    expect(dot(puppy!, dog!)).to.be.greaterThan(dot(dog!, market!) + 0.2);
  });

  it('embeds queries with the retrieval instruction, and they still find the right passage', async () => {
    const [asPassage] = await embedder.embed(['what pet did I get?'], 'passage');
    const [asQuery] = await embedder.embed(['what pet did I get?'], 'query');
    expect(dot(asPassage!, asQuery!)).to.be.below(0.99);
    const [puppy, market] = await embedder.embed(['I adopted a puppy last week', 'The stock market fell'], 'passage');
    expect(dot(asQuery!, puppy!)).to.be.greaterThan(dot(asQuery!, market!));
  });

  it('truncates texts past 512 tokens instead of failing', async () => {
    const long = 'memory service embedding test '.repeat(200);
    const [a, b] = await embedder.embed([long, `${long} with a different tail`], 'passage');
    expect(maxDifference(a!, b!)).to.be.below(1e-4);
  });

  it('measures throughput on 64 sentences', async function () {
    this.timeout(60_000);
    const subjects = ['My sister', 'The new manager', 'Our neighbour', 'A friend from school', 'The doctor', 'Grandpa', 'The team', 'Alex'];
    const actions = ['moved to Lisbon', 'started a pottery class', 'recommended a book about habits', 'adopted two cats', 'ran a half marathon', 'fixed the kitchen sink', 'booked a trip to Japan', 'lost the car keys again'];
    const texts = Array.from({ length: 64 }, (_, i) => `${subjects[i % 8]} ${actions[Math.floor(i / 8)]} last ${i % 2 ? 'week' : 'month'}.`);
    const tokenizer = parseTokenizerJson(readFileSync(modelFiles(resolveModelDir(onnxModel())).tokenizer, 'utf8'));
    const tokens = texts.reduce((sum, text) => sum + tokenizer.encode(text).length, 0);
    const batching = await createOnnxEmbedder({ threads: 1, maxBatch: 32 });
    const rates: string[] = [];
    try {
      for (const [label, subject] of [['one text per call', embedder], ['batches of 32', batching]] as const) {
        await subject.embed(texts.slice(0, 2), 'passage'); // first calls pay for allocations, not inference
        const started = process.hrtime.bigint();
        const vectors = await subject.embed(texts, 'passage');
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        expect(vectors).to.have.length(64);
        rates.push(`${label}: ${(64 / seconds).toFixed(0)} texts/s, ${(tokens / seconds).toFixed(0)} tokens/s`);
      }
    } finally {
      await batching.close();
    }
    console.log(`      onnx embedder, 64 sentences (${tokens} tokens), 1 thread: ${rates.join('; ')}`);
  });

  it('refuses work once closed', async () => {
    const other = await createOnnxEmbedder({ threads: 1 });
    await other.close();
    try {
      await other.embed(['anything'], 'passage');
      expect.fail('should have thrown');
    } catch (error) {
      expect((error as MemoryServiceError).code).to.equal('EMBEDDER.CLOSED');
    }
  });
});
