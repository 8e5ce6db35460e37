import { existsSync, readFileSync } from 'node:fs';
import { expect } from 'chai';
import { ONNX_MODELS } from './model-catalog.js';
import { modelFiles, resolveModelDir } from './model-files.js';
import { createOnnxEmbedder, type OnnxEmbedder } from './onnx-embedder.js';
import { parseTokenizerJson } from './wordpiece-tokenizer.js';

interface ReferenceRow {
  purpose: 'passage' | 'query';
  text: string;
  ids: number[];
  vector: number[];
}

/** Vectors of a few texts made outside this code (see madeWith in the file), per model of models.json. */
const reference = JSON.parse(readFileSync(new URL('./fixtures/reference-vectors.json', import.meta.url), 'utf8')) as {
  madeWith: string;
  models: Record<string, ReferenceRow[]>;
};

const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] ?? 0) * (b[i] ?? 0);
  return sum;
};

describe('reference vectors', () => {
  it('cover every model of models.json', () => {
    expect(Object.keys(reference.models).sort()).to.deep.equal([...ONNX_MODELS.keys()].sort());
  });
});

// Real files, real runtime, for each model the install script has put in place (npm install fetches the default;
// `MEMORY_EMBEDDING_MODEL=<name> node deploy/scripts/install-model.mjs` fetches another).
for (const spec of ONNX_MODELS.values()) {
  describe(`OnnxEmbedder with ${spec.name} (${spec.pooling} pooling)`, () => {
    const dir = resolveModelDir(spec, {});
    let embedder: OnnxEmbedder;

    before(async function () {
      if (!existsSync(modelFiles(dir).onnx)) {
        console.log(`      skipped: ${spec.name} is not installed in ${dir} (MEMORY_EMBEDDING_MODEL=${spec.name} node deploy/scripts/install-model.mjs)`);
        this.skip();
      }
      embedder = await createOnnxEmbedder({ model: spec.name, modelDir: dir, threads: 1 });
    });
    after(async () => {
      await embedder?.close();
    });

    it('tags its vectors with the model and the artifact version', () => {
      expect(embedder.model).to.deep.equal({ name: spec.name, version: spec.version, dimensions: spec.dimensions });
    });

    it('tokenizes as Hugging Face tokenizers does, with the model prefix for each purpose', () => {
      const tokenizer = parseTokenizerJson(readFileSync(modelFiles(dir).tokenizer, 'utf8'));
      for (const row of reference.models[spec.name]!) {
        const prefix = row.purpose === 'query' ? spec.queryPrefix : spec.passagePrefix;
        expect(tokenizer.encode(prefix + row.text, spec.maxTokens), row.text).to.deep.equal(row.ids);
      }
    });

    it('pools and normalises as the reference does', async () => {
      for (const row of reference.models[spec.name]!) {
        const [vector] = await embedder.embed([row.text], row.purpose);
        expect(vector).to.have.length(spec.dimensions);
        expect(Math.sqrt(dot(vector!, vector!))).to.be.closeTo(1, 1e-5);
        // The reference is rounded to 4 decimals and made by another build of ONNX Runtime.
        expect(dot(vector!, row.vector), `${row.purpose}: ${row.text}`).to.be.greaterThan(0.999);
      }
    });

    it('leaves padding out of a padded batch', async () => {
      const texts = ['A fairly long sentence so that the short ones beside it in the call get padded with many tokens.', 'Short one.', 'x'];
      const batching = await createOnnxEmbedder({ model: spec.name, modelDir: dir, threads: 1, maxBatch: 8 });
      try {
        const batched = await batching.embed(texts, 'passage');
        const alone = await embedder.embed(texts, 'passage');
        // Quantised models scale activations per call, so neighbours move a vector (to ~0.975 for MiniLM); padding
        // counted in MiniLM's mean puts these short texts near 0.5. pooling.spec checks the masking exactly.
        for (const [i, text] of texts.entries()) expect(dot(batched[i]!, alone[i]!), text).to.be.greaterThan(0.95);
      } finally {
        await batching.close();
      }
    });

    it(`truncates to the model's ${spec.maxTokens} tokens`, async () => {
      const long = 'memory service embedding test '.repeat(200);
      const [a, b] = await embedder.embed([long, `${long} with a different tail`], 'passage');
      expect(dot(a!, b!)).to.be.greaterThan(1 - 1e-6);
    });

    it('finds the passage a query asks about', async () => {
      const [query] = await embedder.embed(['what pet did I get?'], 'query');
      const [puppy, market] = await embedder.embed(['I adopted a puppy last week', 'The stock market fell'], 'passage');
      expect(dot(query!, puppy!)).to.be.greaterThan(dot(query!, market!) + 0.05);
    });
  });
}
