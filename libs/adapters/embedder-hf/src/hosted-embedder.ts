import { InferenceClient } from '@huggingface/inference';
import { MemoryServiceError } from '@memory/platform';
import type { Embedder, EmbeddingModel } from '@memory/ports';
import { mapHostedError } from './error-map.js';
import { resolveHostedEmbedderOptions, type HostedEmbedderOptions, type HostedEmbedderSettings } from './options.js';
import { responseToUnitVectors } from './response-vectors.js';

/**
 * Embeds through a hosted feature-extraction model (Hugging Face Inference Providers, an Inference Endpoint or a
 * TEI server). Options are checked in the constructor, so a bad configuration fails at start. Failed requests
 * surface as MemoryServiceError with `retriable` set from the HTTP status; retrying is the caller's policy.
 */
export class HostedEmbedder implements Embedder {
  readonly model: EmbeddingModel;
  private readonly settings: HostedEmbedderSettings;
  private readonly client: InferenceClient;
  private readonly closing = new AbortController();

  constructor(options: HostedEmbedderOptions) {
    this.settings = resolveHostedEmbedderOptions(options);
    this.model = Object.freeze({ name: this.settings.model, version: this.settings.modelVersion, dimensions: this.settings.dimensions });
    this.client = new InferenceClient(this.settings.token, this.settings.endpointUrl ? { endpointUrl: this.settings.endpointUrl } : {});
  }

  async embed(texts: string[], purpose: 'passage' | 'query'): Promise<Float32Array[]> {
    if (this.closing.signal.aborted) throw new MemoryServiceError('EMBEDDER.CLOSED', 'the hosted embedder is closed');
    if (purpose !== 'passage' && purpose !== 'query') {
      throw new MemoryServiceError('EMBEDDER.BAD_PURPOSE', `purpose must be "passage" or "query", got ${String(purpose)}`);
    }
    const prefix = purpose === 'query' ? this.settings.queryInstruction : '';
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.settings.maxBatch) {
      const inputs = texts.slice(start, start + this.settings.maxBatch).map((text) => prefix + text);
      vectors.push(...responseToUnitVectors(await this.request(inputs), inputs.length, this.settings.dimensions, this.settings.pooling));
    }
    return vectors;
  }

  async close(): Promise<void> {
    this.closing.abort();
  }

  private async request(inputs: string[]): Promise<unknown> {
    const { model, provider, timeoutMs } = this.settings;
    try {
      return await this.client.featureExtraction(
        { model, inputs, ...(provider ? { provider } : {}) },
        // The SDK would retry 503s forever on its own; our callers own the retry policy and its limits.
        { retry_on_error: false, signal: AbortSignal.any([this.closing.signal, AbortSignal.timeout(timeoutMs)]) },
      );
    } catch (error) {
      throw mapHostedError(error);
    }
  }
}

export function createHostedEmbedder(options: HostedEmbedderOptions): HostedEmbedder {
  return new HostedEmbedder(options);
}
