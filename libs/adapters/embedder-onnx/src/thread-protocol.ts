import { fromErrorRecord, toErrorRecord, type ErrorRecord, type MemoryServiceError } from '@memory/platform';
import type { EmbeddingModel } from '@memory/ports';
import type { OnnxEmbedderOptions } from './options.js';

/** The messages between an EmbedderThread and its worker: one request, one answer, matched by id. */
export interface ThreadStart {
  options: OnnxEmbedderOptions;
  /** The worker module's URL, imported by thread-bootstrap.mjs. */
  entry: string;
}

export interface EmbedRequest {
  id: number;
  texts: string[];
  purpose: 'passage' | 'query';
}

/** A MemoryServiceError as it crosses the thread boundary, where its class does not survive. */
export type ThreadError = ErrorRecord;

export type ThreadMessage =
  | { type: 'ready'; model: EmbeddingModel }
  | { type: 'failed'; error: ThreadError }
  | { type: 'vectors'; id: number; vectors: Float32Array[] }
  | { type: 'error'; id: number; error: ThreadError };

export function toThreadError(error: unknown): ThreadError {
  return toErrorRecord(error, 'EMBEDDER.INFERENCE_FAILED');
}

export function fromThreadError(error: ThreadError): MemoryServiceError {
  return fromErrorRecord(error);
}
