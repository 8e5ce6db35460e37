import { PROVIDERS_OR_POLICIES, type InferenceProviderOrPolicy } from '@huggingface/inference';
import { ConfigError } from '@memory/platform';

export type TokenPooling = 'cls' | 'mean';

export interface HostedEmbedderOptions {
  /** Hugging Face access token (or the provider's key). */
  token: string;
  /** Hub model id; default BAAI/bge-small-en-v1.5. With endpointUrl it only names the model in the model tag. */
  model?: string;
  /** A dedicated Inference Endpoint or text-embeddings-inference server; excludes `provider`. */
  endpointUrl?: string;
  /** Inference provider when no endpointUrl is given; default hf-inference, which needs no extra routing lookup. */
  provider?: string;
  /** Length of the vectors the model returns; checked on every response, since the vector store is sized by it. */
  dimensions: number;
  /**
   * Used only when the service answers with one vector per token instead of one per text (plain transformers
   * models do; sentence-transformers models and TEI pool on the server). `cls` is what bge was trained with.
   * Mean pooling here cannot see an attention mask, so padded token rows would count: prefer server pooling.
   */
  pooling?: TokenPooling;
  /** Prefix for query texts; default bge's retrieval instruction for BAAI/bge-*-en* models, none otherwise. */
  queryInstruction?: string;
  /** Goes into the model tag. Hosted models change without notice; name a revision you checked, if you can. */
  modelVersion?: string;
  /** Most texts per request; default 32. */
  maxBatch?: number;
  /** Per-request timeout; default 30 s. */
  timeoutMs?: number;
}

export interface HostedEmbedderSettings {
  token: string;
  model: string;
  endpointUrl: string | undefined;
  provider: InferenceProviderOrPolicy | undefined;
  dimensions: number;
  pooling: TokenPooling;
  queryInstruction: string;
  modelVersion: string;
  maxBatch: number;
  timeoutMs: number;
}

export const DEFAULT_HOSTED_MODEL = 'BAAI/bge-small-en-v1.5';
export const BGE_QUERY_INSTRUCTION = 'Represent this sentence for searching relevant passages: ';
const HUB_MODEL_ID = /^[\w.-]+(\/[\w.-]+)?$/;
const BGE_ENGLISH = /^BAAI\/bge-[\w.-]*en[\w.-]*$/i;

/** Validates everything before any request is made, and reports every problem in one ConfigError. */
export function resolveHostedEmbedderOptions(options: HostedEmbedderOptions): HostedEmbedderSettings {
  const problems: string[] = [];
  const given = (options ?? {}) as Partial<HostedEmbedderOptions>;

  const integer = (name: 'dimensions' | 'maxBatch' | 'timeoutMs', fallback: number | undefined, min: number, max: number): number => {
    const value = given[name];
    if (value === undefined && fallback !== undefined) return fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max}, got ${String(value)}`);
      return fallback ?? min;
    }
    return value;
  };
  const text = (name: 'token' | 'model' | 'endpointUrl' | 'provider' | 'queryInstruction' | 'modelVersion'): string | undefined => {
    const value = given[name];
    if (value !== undefined && typeof value !== 'string') problems.push(`${name} must be a string`);
    return typeof value === 'string' ? value : undefined;
  };

  const token = text('token');
  if (!token?.trim()) problems.push('token is required (a Hugging Face access token or the provider key)');

  const model = text('model') ?? DEFAULT_HOSTED_MODEL;
  if (!HUB_MODEL_ID.test(model)) problems.push(`model must be a hub model id like "org/name", got "${model}"`);

  const endpointUrl = text('endpointUrl');
  if (endpointUrl !== undefined && !isHttpUrl(endpointUrl)) problems.push(`endpointUrl must be an http(s) URL, got "${endpointUrl}"`);

  let provider = text('provider') as InferenceProviderOrPolicy | undefined;
  if (provider !== undefined && !(PROVIDERS_OR_POLICIES as readonly string[]).includes(provider)) {
    problems.push(`provider must be one of ${PROVIDERS_OR_POLICIES.join(', ')}, got "${provider}"`);
  }
  if (endpointUrl !== undefined && provider !== undefined) problems.push('give either endpointUrl or provider, not both');
  if (endpointUrl === undefined) provider ??= 'hf-inference';

  const pooling = given.pooling ?? 'cls';
  if (pooling !== 'cls' && pooling !== 'mean') problems.push(`pooling must be "cls" or "mean", got "${String(pooling)}"`);

  const settings: HostedEmbedderSettings = {
    token: token ?? '',
    model,
    endpointUrl,
    provider,
    dimensions: integer('dimensions', undefined, 1, 8192),
    pooling,
    queryInstruction: text('queryInstruction') ?? (BGE_ENGLISH.test(model) ? BGE_QUERY_INSTRUCTION : ''),
    modelVersion: text('modelVersion') ?? 'main',
    maxBatch: integer('maxBatch', 32, 1, 1024),
    timeoutMs: integer('timeoutMs', 30_000, 100, 600_000),
  };
  if (problems.length) throw new ConfigError(`invalid hosted embedder options:\n  - ${problems.join('\n  - ')}`, { problems });
  return settings;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}
