/** The scripts our processes start as worker threads or child processes, each compiled beside the apps. */
export const WORKER_SCRIPTS = {
  'embedder-thread': 'libs/adapters/embedder-onnx/src/thread-worker.ts',
  'file-worker': 'libs/file-pool/src/worker.ts',
} as const;
export type WorkerScriptName = keyof typeof WORKER_SCRIPTS;

/**
 * Replaced by the app build (esbuild `define`) with the folder of that build's compiled scripts; a bare identifier
 * nobody declares when our TypeScript runs from source.
 */
declare const MEMORY_COMPILED_SCRIPTS: string;

export interface WorkerScript {
  url: URL;
  /** Node options the script needs: tsx's loader for TypeScript source, nothing for a compiled script. */
  execArgv: string[];
  compiled: boolean;
}

/**
 * What a worker should run: its compiled script when this process runs a compiled app (no TypeScript loader, which
 * costs each process a hooks thread and may start an esbuild child), else its source beside the caller.
 */
export function workerScript(name: WorkerScriptName, source: URL): WorkerScript {
  if (typeof MEMORY_COMPILED_SCRIPTS === 'string') return { url: new URL(`${name}.mjs`, `${MEMORY_COMPILED_SCRIPTS}/`), execArgv: [], compiled: true };
  return { url: source, execArgv: ['--conditions=source', '--import', 'tsx'], compiled: false };
}
