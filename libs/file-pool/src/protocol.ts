import type { ErrorRecord } from '@memory/platform';
import type { FileTaskKind, FileTasks } from './tasks.js';

/** Parent to worker: one task, answered once, matched by id. */
export interface TaskMessage<K extends FileTaskKind = FileTaskKind> {
  id: number;
  kind: K;
  input: FileTasks[K]['input'];
}

/** Worker to parent. `ready` comes once, after the OCR models are loaded, so loading is never charged to a file. */
export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'result'; id: number; output: unknown }
  | { type: 'error'; id: number; error: ErrorRecord };
