import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { createOnnxEmbedder } from './onnx-embedder.js';
import { toThreadError, type EmbedRequest, type ThreadMessage, type ThreadStart } from './thread-protocol.js';

/** The worker side of EmbedderThread: the in-process OnnxEmbedder, answering one request at a time in order. */
const port = parentPort!;
const post = (message: ThreadMessage, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

/**
 * Embedding is background work: on a small machine it competes for the cores with requests (accepting, searching)
 * whose callers wait. A lower priority (nice 10) for this thread, and the model threads it starts, lets the request
 * thread run first when both want a core; idle cores still go to the model. Linux only (a thread's id from
 * /proc/thread-self); elsewhere the thread keeps the process's priority.
 */
function lowerThreadPriority(): void {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(threadId)) setPriority(threadId, 10);
  } catch {
    // Not Linux, or not allowed: the default priority is correct, only less kind to requests.
  }
}

try {
  if ((workerData as ThreadStart).lowerPriority) lowerThreadPriority();
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
