import { readFile } from 'node:fs/promises';
import type { InferenceSession, Tensor } from 'onnxruntime-node';
import { MemoryServiceError } from '@memory/platform';
import type { Embedder, EmbeddingModel } from '@memory/ports';
import { planBatches } from './batch-plan.js';
import { embeddingModelOf } from './model-catalog.js';
import { requireModelFiles, resolveModelDir } from './model-files.js';
import { resolveOnnxEmbedderOptions, type OnnxEmbedderOptions, type OnnxEmbedderSettings } from './options.js';
import { clsVector, meanOfTokens } from './pooling.js';
import { l2NormalizeInPlace } from './vector.js';
import { parseTokenizerJson, type WordPieceTokenizer } from './wordpiece-tokenizer.js';

/**
 * ONNX Runtime's native binding, loaded when a model is, not when this library is imported: the composition
 * imports it for the model catalogue in every process, and only the processes that embed run the model.
 */
type Runtime = typeof import('onnxruntime-node');

const REQUIRED_INPUTS = ['input_ids', 'attention_mask'] as const;
const OUTPUT = 'last_hidden_state';

/**
 * Runs a BERT-style sentence encoder from models.json in-process: our WordPiece tokenizer, the model's query or
 * passage prefix, ONNX Runtime for the encoder, then the model's pooling of the last hidden state ([CLS] or the
 * mean over the text's tokens), L2-normalised. By default each text is its own model call, so its vector never
 * depends on what it was sent with (see OnnxEmbedderOptions.maxBatch).
 */
export class OnnxEmbedder implements Embedder {
  readonly model: EmbeddingModel;
  private readonly feedsTokenTypes: boolean;
  // One model call at a time: ONNX Runtime already spreads a call over its threads, and concurrent calls would
  // only fight over the same cores.
  private tail: Promise<unknown> = Promise.resolve();
  private closed = false;

  /** Use createOnnxEmbedder, which checks the files and the model's signature first. */
  constructor(
    private readonly runtime: Runtime,
    private readonly session: InferenceSession,
    private readonly tokenizer: WordPieceTokenizer,
    private readonly settings: OnnxEmbedderSettings,
  ) {
    this.feedsTokenTypes = session.inputNames.includes('token_type_ids');
    this.model = embeddingModelOf(settings.model);
  }

  async embed(texts: string[], purpose: 'passage' | 'query'): Promise<Float32Array[]> {
    this.assertOpen();
    if (purpose !== 'passage' && purpose !== 'query') {
      throw new MemoryServiceError('EMBEDDER.BAD_PURPOSE', `purpose must be "passage" or "query", got ${String(purpose)}`);
    }
    const { queryPrefix, passagePrefix, maxTokens } = this.settings.model;
    const prefix = purpose === 'query' ? queryPrefix : passagePrefix;
    const encoded = texts.map((text) => this.tokenizer.encode(prefix + text, maxTokens));
    const vectors = new Array<Float32Array>(texts.length);
    for (const batch of planBatches(encoded.map((ids) => ids.length), this.settings.maxBatch, this.settings.maxBatchTokens)) {
      const rows = batch.map((index) => encoded[index] ?? []);
      // Checked again inside the queue: close() may have released the session while this call waited.
      const embedded = await this.exclusive(() => {
        this.assertOpen();
        return this.runBatch(rows);
      });
      batch.forEach((index, row) => {
        vectors[index] = embedded[row] as Float32Array;
      });
    }
    return vectors;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.tail;
    await this.session.release();
  }

  private assertOpen(): void {
    if (this.closed) throw new MemoryServiceError('EMBEDDER.CLOSED', 'the onnx embedder is closed');
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail.then(work, work);
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async runBatch(rows: number[][]): Promise<Float32Array[]> {
    const width = Math.max(...rows.map((ids) => ids.length));
    const shape = [rows.length, width];
    const ids = new BigInt64Array(rows.length * width);
    const mask = new BigInt64Array(rows.length * width);
    rows.forEach((row, r) => {
      row.forEach((id, c) => {
        ids[r * width + c] = BigInt(id);
        mask[r * width + c] = 1n;
      });
    });
    const feeds: Record<string, Tensor> = {
      input_ids: new this.runtime.Tensor('int64', ids, shape),
      attention_mask: new this.runtime.Tensor('int64', mask, shape),
    };
    // Single-segment input: every token type is 0.
    if (this.feedsTokenTypes) feeds['token_type_ids'] = new this.runtime.Tensor('int64', new BigInt64Array(rows.length * width), shape);

    let output: Tensor | undefined;
    try {
      output = (await this.session.run(feeds))[OUTPUT];
    } catch (error) {
      throw new MemoryServiceError('EMBEDDER.INFERENCE_FAILED', `onnx runtime failed on a batch of ${rows.length}: ${(error as Error).message}`, { cause: error });
    }
    const dimensions = this.model.dimensions;
    if (!output || output.dims.length !== 3 || output.dims[2] !== dimensions) {
      throw new MemoryServiceError('EMBEDDER.MODEL_INVALID', `model returned ${OUTPUT} of shape [${output?.dims.join(', ') ?? ''}], expected [${rows.length}, ${width}, ${dimensions}]`);
    }
    const hidden = output.data as Float32Array;
    const pool = this.settings.model.pooling === 'cls' ? clsVector : meanOfTokens;
    return rows.map((row, r) => l2NormalizeInPlace(pool(hidden, r * width * dimensions, row.length, dimensions)));
  }
}

/**
 * Loads the local model. Fails with EMBEDDER.MODEL_MISSING (and what to run) when the install step has not put
 * the files in place, with CONFIG.INVALID on bad options, and with EMBEDDER.MODEL_INVALID when the files are not
 * the BERT encoder this adapter expects.
 */
export async function createOnnxEmbedder(options: OnnxEmbedderOptions = {}): Promise<OnnxEmbedder> {
  const settings = resolveOnnxEmbedderOptions(options);
  const files = requireModelFiles(settings.modelDir ?? resolveModelDir(settings.model), settings.model);
  const tokenizer = parseTokenizerJson(await readFile(files.tokenizer, 'utf8'));
  const runtime: Runtime = await import('onnxruntime-node');
  let session: InferenceSession;
  try {
    session = await runtime.InferenceSession.create(files.onnx, {
      intraOpNumThreads: settings.threads,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
    });
  } catch (error) {
    throw new MemoryServiceError('EMBEDDER.MODEL_INVALID', `cannot load ${files.onnx}: ${(error as Error).message}`, { cause: error });
  }
  const missingInputs = REQUIRED_INPUTS.filter((name) => !session.inputNames.includes(name));
  if (missingInputs.length || !session.outputNames.includes(OUTPUT)) {
    await session.release();
    throw new MemoryServiceError(
      'EMBEDDER.MODEL_INVALID',
      `${files.onnx} has inputs [${session.inputNames.join(', ')}] and outputs [${session.outputNames.join(', ')}]; ` +
        `expected ${REQUIRED_INPUTS.join(', ')} in and ${OUTPUT} out`,
    );
  }
  return new OnnxEmbedder(runtime, session, tokenizer, settings);
}
