/**
 * Runs tasks one at a time, in call order. The OCR engine shares one OpenCV (WASM) heap and two ONNX sessions
 * between calls and is not documented as re-entrant; on a CPU-bound model, queueing costs no throughput anyway.
 */
export interface SerialQueue {
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Resolves when every task queued so far has settled. */
  idle(): Promise<void>;
}

export function createSerialQueue(): SerialQueue {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run<T>(task: () => Promise<T>): Promise<T> {
      const result = tail.then(task, task);
      tail = result.catch(() => undefined);
      return result;
    },
    idle: () => tail.then(() => undefined),
  };
}
