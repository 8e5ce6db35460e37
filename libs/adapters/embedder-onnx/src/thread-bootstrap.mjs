// The embedding worker's first module when it runs from source (a compiled app starts its compiled script instead).
// Plain JavaScript on purpose: Node 20 does not pass tsx's loader hooks on to worker threads, so the worker
// registers them itself before importing our TypeScript.
import { workerData } from 'node:worker_threads';

(await import('tsx/esm/api')).register();
await import(workerData.entry);
