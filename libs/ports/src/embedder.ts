export interface EmbeddingModel {
  /** e.g. bge-small-en-v1.5-q */
  name: string;
  version: string;
  dimensions: number;
}

/**
 * Turns texts into unit-length vectors. Queries and passages may be embedded differently (bge prefixes queries
 * with an instruction), so callers say which they send.
 */
export interface Embedder {
  readonly model: EmbeddingModel;
  embed(texts: string[], purpose: 'passage' | 'query'): Promise<Float32Array[]>;
  close(): Promise<void>;
}

export function modelTag(model: EmbeddingModel): string {
  return `${model.name}@${model.version}`;
}
