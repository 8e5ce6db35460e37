// The embedding worker's first module. Plain JavaScript on purpose: Node 20 does not pass tsx's loader hooks on to
// worker threads, so a worker that runs our TypeScript from source must register them itself before importing it.
import { workerData } from 'node:worker_threads';

if (workerData.entry.endsWith('.ts')) (await import('tsx/esm/api')).register();
await import(workerData.entry);
