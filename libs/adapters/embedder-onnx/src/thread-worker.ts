import { parentPort, workerData } from 'node:worker_threads';
import { createOnnxEmbedder } from './onnx-embedder.js';
import { toThreadError, type EmbedRequest, type ThreadMessage, type ThreadStart } from './thread-protocol.js';

/** The worker side of EmbedderThread: the in-process OnnxEmbedder, answering one request at a time in order. */
const port = parentPort!;
const post = (message: ThreadMessage, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

try {
  const embedder = await createOnnxEmbedder((workerData as ThreadStart).options);
  port.on('message', (request: EmbedRequest) => {
    embedder.embed(request.texts, request.purpose).then(
      (vectors) => post({ type: 'vectors', id: request.id, vectors }, vectors.map((v) => v.buffer as ArrayBuffer)),
      (error: unknown) => post({ type: 'error', id: request.id, error: toThreadError(error) }),
    );
  });
  post({ type: 'ready', model: embedder.model });
} catch (error) {
  post({ type: 'failed', error: toThreadError(error) });
}
