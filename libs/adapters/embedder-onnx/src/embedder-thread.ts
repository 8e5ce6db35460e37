import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { MemoryServiceError } from '@memory/platform';
import type { Embedder, EmbeddingModel } from '@memory/ports';
import { DEFAULT_ONNX_MODEL } from './model-catalog.js';
import { resolveOnnxEmbedderOptions, type OnnxEmbedderOptions } from './options.js';
import { fromThreadError, type EmbedRequest, type ThreadMessage, type ThreadStart } from './thread-protocol.js';

/**
 * ONNX Runtime's Node binding runs a model call synchronously on the calling thread. In the service's main thread
 * each call (~15 ms for one memory) would stall HTTP, search and every pipeline stage, so the model (and its tokenizer)
 * gets a worker thread of its own and the main thread only waits for vectors.
 *
 * One worker, one call at a time, as the in-process embedder: the model's own intra-op threads are the
 * parallelism. The worker runs queries before passages and passages a few per turn (see thread-worker.ts), so a
 * search waits for at most a few passages, not for the calls the pipeline has queued. When the worker dies, the
 * calls it held fail as retriable and the next call starts a new worker.
 */
export class EmbedderThread implements Embedder {
  readonly model: EmbeddingModel;
  /** Calls sent to the worker, by request id. */
  private readonly pending = new Map<number, Call>();
  private readonly inFlight = new Set<Promise<unknown>>();
  /** A replacement for a dead worker may still be loading: calls wait for it. */
  private worker: Promise<Worker>;
  /**
   * The worker once loaded. A call is posted to it synchronously: awaiting `worker` first put the post behind
   * every microtask queued meanwhile, so a caller that went on to other synchronous work (the enricher enriching
   * its next slices) held the model idle until it was done.
   */
  private loaded: Worker | null;
  private nextId = 0;
  private closed = false;

  private constructor(
    worker: Worker,
    model: EmbeddingModel,
    private readonly options: OnnxEmbedderOptions,
  ) {
    this.model = model;
    this.worker = Promise.resolve(worker);
    this.loaded = worker;
    this.listen(worker);
  }

  /** Loads the model in a new worker; fails with the worker's own error (EMBEDDER.MODEL_MISSING, CONFIG.INVALID, ...). */
  static async start(options: OnnxEmbedderOptions = {}): Promise<EmbedderThread> {
    resolveOnnxEmbedderOptions(options);
    const { worker, model } = await startWorker(options);
    return new EmbedderThread(worker, model, options);
  }

  async embed(texts: string[], purpose: 'passage' | 'query'): Promise<Float32Array[]> {
    if (this.closed) throw new MemoryServiceError('EMBEDDER.CLOSED', 'the onnx embedder is closed');
    if (texts.length === 0) return [];
    const call = this.send(texts, purpose);
    this.inFlight.add(call);
    void call.catch(() => undefined).finally(() => this.inFlight.delete(call));
    return call;
  }

  /** Calls already sent finish first, as with the in-process embedder. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.allSettled([...this.inFlight]);
    const worker = await this.worker.catch(() => null);
    await worker?.terminate();
  }

  private async send(texts: string[], purpose: 'passage' | 'query'): Promise<Float32Array[]> {
    const worker = this.loaded ?? (await this.current());
    const id = this.nextId++;
    return new Promise<Float32Array[]>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      const request: EmbedRequest = { id, texts, purpose };
      worker.postMessage(request);
    });
  }

  private settle(id: number, settle: (call: Call) => void): void {
    const call = this.pending.get(id);
    if (!call) return;
    this.pending.delete(id);
    settle(call);
  }

  private listen(worker: Worker): void {
    worker.on('message', (message: ThreadMessage) => {
      if (message.type === 'vectors') this.settle(message.id, (call) => call.resolve(message.vectors));
      else if (message.type === 'error') this.settle(message.id, (call) => call.reject(fromThreadError(message.error)));
    });
    // An uncaught error in the worker ends it; 'exit' follows and does the recovery.
    worker.on('error', () => undefined);
    worker.once('exit', (code) => {
      if (this.closed) return;
      const failure = new MemoryServiceError('EMBEDDER.THREAD_EXITED', `the embedding worker thread exited (code ${code}); the call can be retried`, { retriable: true });
      for (const call of this.pending.values()) call.reject(failure);
      this.pending.clear();
      this.loaded = null;
      this.replaceWorker();
    });
  }

  private async current(): Promise<Worker> {
    try {
      return await this.worker;
    } catch (error) {
      // The last restart failed: try again for this call, and say why if it fails again.
      this.replaceWorker();
      throw error;
    }
  }

  private replaceWorker(): void {
    this.worker = startWorker(this.options).then(
      ({ worker }) => {
        this.listen(worker);
        this.loaded = worker;
        return worker;
      },
      (error: unknown) => {
        throw new MemoryServiceError('EMBEDDER.THREAD_EXITED', `the embedding worker thread could not be restarted: ${(error as Error).message}`, { retriable: true, cause: error });
      },
    );
    this.worker.catch(() => undefined);
  }
}

interface Call {
  resolve: (vectors: Float32Array[]) => void;
  reject: (error: Error) => void;
}

export async function createOnnxEmbedderThread(options: OnnxEmbedderOptions = {}): Promise<EmbedderThread> {
  return EmbedderThread.start(options);
}

/** The worker runs the same module format as this file: from source (.ts, through tsx) or built (.js). */
function startWorker(options: OnnxEmbedderOptions): Promise<{ worker: Worker; model: EmbeddingModel }> {
  const here = import.meta.url;
  const start: ThreadStart = { options, entry: new URL(`./thread-worker${extname(fileURLToPath(here))}`, here).href };
  const worker = new Worker(new URL('./thread-bootstrap.mjs', here), { workerData: start, name: `embedder ${options.model ?? DEFAULT_ONNX_MODEL}` });
  return new Promise((resolve, reject) => {
    const onExit = (code: number) => reject(new MemoryServiceError('EMBEDDER.THREAD_EXITED', `the embedding worker thread exited (code ${code}) while loading the model`));
    worker.once('error', reject);
    worker.once('exit', onExit);
    worker.once('message', (message: ThreadMessage) => {
      worker.off('error', reject);
      worker.off('exit', onExit);
      if (message.type === 'ready') resolve({ worker, model: message.model });
      else {
        void worker.terminate();
        reject(message.type === 'failed' ? fromThreadError(message.error) : new MemoryServiceError('EMBEDDER.THREAD_PROTOCOL', `unexpected first message ${message.type}`));
      }
    });
  });
}
