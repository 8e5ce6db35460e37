import { preloadDocumentReading } from '@memory/document-text';
import { createOcr } from '@memory/image-analysis';
import { toErrorRecord } from '@memory/platform';
import type { TaskMessage, WorkerMessage } from './protocol.js';
import { runTask } from './tasks.js';

/**
 * A file worker: a child process that reads one file at a time for the pool. It is killed when a file passes a
 * limit, so nothing here cleans up after a task beyond what the libraries do.
 */
const send = (message: WorkerMessage) => process.send?.(message);

// One thread for the OCR model: the pool's size is how many cores file reading may take, one per worker.
const ocr = await createOcr({ threads: 1 });
// A missing OCR engine is reported by each task that needs it (IMAGE.OCR_UNAVAILABLE); text-layer PDFs still work.
await ocr.ready().catch(() => undefined);
await preloadDocumentReading();

process.on('message', (message: TaskMessage) => {
  runTask(message.kind, message.input, ocr).then(
    (output) => send({ type: 'result', id: message.id, output }),
    (error: unknown) => send({ type: 'error', id: message.id, error: toErrorRecord(error, 'FILES.READ_FAILED') }),
  );
});
// The pool going away (a crash of the service included) ends the worker too.
process.on('disconnect', () => process.exit(0));
send({ type: 'ready' });
