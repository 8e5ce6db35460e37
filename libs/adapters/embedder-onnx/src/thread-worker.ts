import { parentPort, workerData } from 'node:worker_threads';
import { createOnnxEmbedder } from './onnx-embedder.js';
import { toThreadError, type EmbedRequest, type ThreadMessage, type ThreadStart } from './thread-protocol.js';

/**
 * The worker side of EmbedderThread: the in-process OnnxEmbedder, one request at a time, queries first. A model
 * call blocks this thread, so requests pile up in the port meanwhile; each next one is picked only after the event
 * loop has taken them in, so a query waits for at most the call that was running when it came.
 */
const port = parentPort!;
const post = (message: ThreadMessage, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

try {
  const embedder = await createOnnxEmbedder((workerData as ThreadStart).options);
  const waiting: Record<EmbedRequest['purpose'], EmbedRequest[]> = { query: [], passage: [] };
  let running = false;
  const runWaiting = async () => {
    if (running) return;
    running = true;
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve));
      const request = waiting.query.shift() ?? waiting.passage.shift();
      if (!request) break;
      try {
        const vectors = await embedder.embed(request.texts, request.purpose);
        post({ type: 'vectors', id: request.id, vectors }, vectors.map((v) => v.buffer as ArrayBuffer));
      } catch (error) {
        post({ type: 'error', id: request.id, error: toThreadError(error) });
      }
    }
    running = false;
  };
  port.on('message', (request: EmbedRequest) => {
    waiting[request.purpose === 'query' ? 'query' : 'passage'].push(request);
    void runWaiting();
  });
  post({ type: 'ready', model: embedder.model });
} catch (error) {
  post({ type: 'failed', error: toThreadError(error) });
}
