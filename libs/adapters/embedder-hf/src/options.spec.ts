import { expect } from 'chai';
import { ConfigError } from '@memory/platform';
import { modelTag } from '@memory/ports';
import { HostedEmbedder } from './hosted-embedder.js';
import { BGE_QUERY_INSTRUCTION, resolveHostedEmbedderOptions, type HostedEmbedderOptions } from './options.js';

function problemsOf(options: unknown): string[] {
  try {
    resolveHostedEmbedderOptions(options as HostedEmbedderOptions);
  } catch (error) {
    expect(error).to.be.instanceOf(ConfigError);
    expect((error as ConfigError).code).to.equal('CONFIG.INVALID');
    return (error as ConfigError).details?.['problems'] as string[];
  }
  throw new Error('expected a ConfigError');
}

describe('hosted embedder options', () => {
  it('fills defaults for bge on hf-inference', () => {
    const settings = resolveHostedEmbedderOptions({ token: 'hf_x', dimensions: 384 });
    expect(settings).to.include({
      model: 'BAAI/bge-small-en-v1.5',
      provider: 'hf-inference',
      pooling: 'cls',
      queryInstruction: BGE_QUERY_INSTRUCTION,
      modelVersion: 'main',
      maxBatch: 32,
      timeoutMs: 30_000,
    });
    expect(settings.endpointUrl).to.equal(undefined);
  });

  it('uses no query instruction for models that were not trained with one, unless told', () => {
    expect(resolveHostedEmbedderOptions({ token: 't', dimensions: 768, model: 'sentence-transformers/all-mpnet-base-v2' }).queryInstruction).to.equal('');
    expect(resolveHostedEmbedderOptions({ token: 't', dimensions: 768, model: 'intfloat/e5-base-v2', queryInstruction: 'query: ' }).queryInstruction).to.equal('query: ');
  });

  it('takes an endpoint URL without a provider', () => {
    const settings = resolveHostedEmbedderOptions({ token: 't', dimensions: 384, endpointUrl: 'https://xyz.endpoints.huggingface.cloud' });
    expect(settings.provider).to.equal(undefined);
    expect(settings.endpointUrl).to.equal('https://xyz.endpoints.huggingface.cloud');
  });

  it('reports every problem at once', () => {
    const problems = problemsOf({
      token: ' ',
      model: 'not a model id',
      endpointUrl: 'ftp://host',
      provider: 'nowhere',
      dimensions: 0,
      pooling: 'max',
      maxBatch: 1.5,
      timeoutMs: 10,
    });
    expect(problems.join('\n'))
      .to.contain('token is required')
      .and.contain('model must be a hub model id')
      .and.contain('endpointUrl must be an http(s) URL')
      .and.contain('provider must be one of')
      .and.contain('either endpointUrl or provider')
      .and.contain('dimensions must be')
      .and.contain('pooling must be')
      .and.contain('maxBatch must be')
      .and.contain('timeoutMs must be');
  });

  it('requires dimensions, since the vector store is sized by them', () => {
    expect(problemsOf({ token: 't' })).to.deep.equal(['dimensions must be a whole number from 1 to 8192, got undefined']);
  });

  it('is applied by the constructor, so a bad configuration fails before any request', () => {
    expect(() => new HostedEmbedder({ token: '', dimensions: 384 })).to.throw(ConfigError, /token is required/);
    const embedder = new HostedEmbedder({ token: 't', dimensions: 384, modelVersion: '5c38ec7' });
    expect(modelTag(embedder.model)).to.equal('BAAI/bge-small-en-v1.5@5c38ec7');
    expect(embedder.model.dimensions).to.equal(384);
  });
});

// What follows needs no network: no texts means no request, and a closed embedder refuses before sending.
describe('HostedEmbedder without a request', () => {
  it('answers no texts with no vectors', async () => {
    expect(await new HostedEmbedder({ token: 't', dimensions: 384 }).embed([], 'query')).to.deep.equal([]);
  });

  it('refuses work once closed', async () => {
    const embedder = new HostedEmbedder({ token: 't', dimensions: 384 });
    await embedder.close();
    try {
      await embedder.embed(['x'], 'passage');
      expect.fail('should have thrown');
    } catch (error) {
      expect((error as { code?: string }).code).to.equal('EMBEDDER.CLOSED');
    }
  });
});
