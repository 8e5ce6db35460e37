import { expect } from 'chai';
import { workerScript } from './worker-script.js';

describe('workerScript', () => {
  it('runs a worker from its TypeScript source through tsx when this process runs from source', () => {
    const source = new URL('./thread-worker.ts', 'file:///repo/libs/adapters/embedder-onnx/src/embedder-thread.ts');
    expect(workerScript('embedder-thread', source)).to.deep.equal({ url: source, execArgv: ['--conditions=source', '--import', 'tsx'], compiled: false });
  });
});
