import { parentPort, workerData } from 'node:worker_threads';
import { createOnnxEmbedder } from './onnx-embedder.js';
import { toThreadError, type EmbedRequest, type ThreadMessage, type ThreadStart } from './thread-protocol.js';

/**
 * Passages embedded per turn of this thread's loop. A model call blocks the thread, so a query or another end
 * user's first passage that arrives waits for the turn being run: with the enricher's 32 passages a call, that wait
 * was most of a search's latency while another user's memories were being ingested (README, Performance). A passage
 * is its own model call anyway (see OnnxEmbedderOptions.maxBatch), so taking them one at a time costs nothing.
 */
const PASSAGES_PER_TURN = 1;

/** A passage request being worked through, a turn at a time. */
interface PassageWork {
  request: EmbedRequest;
  vectors: Float32Array[];
}

/**
 * The worker side of EmbedderThread: the in-process OnnxEmbedder, queries first. Requests pile up in the port
 * while a model call blocks this thread; each turn is picked only after the event loop has taken them in, so a
 * query waits for at most the turn that was running when it came: one query, or PASSAGES_PER_TURN passages.
 *
 * Passage requests that have not had a turn yet go before those under way, for one turn each; after it they queue
 * behind the older ones. The pipeline embeds per partition, and a partition is one end user's or another's: one
 * user's flood of memories is then one long request, and another user's single memory waits for a turn of it, not
 * for all of it. A request under way loses at most one turn to each newcomer, and newcomers are bounded by the
 * callers waiting on them, so it is never starved.
 */
const port = parentPort!;
const post = (message: ThreadMessage, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
const answer = (id: number, vectors: Float32Array[]) => post({ type: 'vectors', id, vectors }, vectors.map((v) => v.buffer as ArrayBuffer));
const fail = (id: number, error: unknown) => post({ type: 'error', id, error: toThreadError(error) });

try {
  const options = (workerData as ThreadStart).options;
  const embedder = await createOnnxEmbedder(options);
  // Larger model batches must not be cut: a text's vector then depends on what it was sent with.
  const passagesPerTurn = Math.max(PASSAGES_PER_TURN, options.maxBatch ?? 1);
  const queries: EmbedRequest[] = [];
  /** Passage requests that have had no turn yet, and those under way, each oldest first. */
  const newcomers: PassageWork[] = [];
  const underWay: PassageWork[] = [];

  /**
   * One turn: a whole query, else the next passages of the oldest newcomer, else of the oldest request under way.
   * A failure answers its request.
   */
  const turn = async () => {
    const query = queries.shift();
    if (query) {
      try {
        answer(query.id, await embedder.embed(query.texts, 'query'));
      } catch (error) {
        fail(query.id, error);
      }
      return;
    }
    const work = newcomers.shift() ?? underWay.shift()!;
    const { id, texts } = work.request;
    const firstTurn = work.vectors.length === 0;
    try {
      work.vectors.push(...(await embedder.embed(texts.slice(work.vectors.length, work.vectors.length + passagesPerTurn), 'passage')));
    } catch (error) {
      fail(id, error);
      return;
    }
    if (work.vectors.length === texts.length) answer(id, work.vectors);
    // After its first turn a request queues behind the older ones under way; the oldest keeps its place.
    else if (firstTurn) underWay.push(work);
    else underWay.unshift(work);
  };

  let running = false;
  const runWaiting = async () => {
    if (running) return;
    running = true;
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve));
      if (queries.length === 0 && newcomers.length === 0 && underWay.length === 0) break;
      await turn();
    }
    running = false;
  };
  port.on('message', (request: EmbedRequest) => {
    if (request.purpose === 'query') queries.push(request);
    else newcomers.push({ request, vectors: [] });
    void runWaiting();
  });
  post({ type: 'ready', model: embedder.model });
} catch (error) {
  post({ type: 'failed', error: toThreadError(error) });
}
