import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { processTree } from '@memory/platform';
import { killTree, processName } from './process-tree.js';

describe('process tree', () => {
  it('kills a child and its grandchild', async function () {
    this.timeout(10_000);
    // A shell that starts a sleeping grandchild and waits for it.
    const child = spawn('sh', ['-c', 'sleep 30 & wait'], { stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    let tree: number[] = [];
    for (let i = 0; i < 50 && tree.length < 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      tree = processTree(child.pid!);
    }
    expect(tree).to.have.length(2);
    killTree(child.pid!);
    await exited;
    const grandchild = tree[1]!;
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Gone, or a zombie until init reaps it: either way no longer running.
    const state = (() => {
      try {
        const stat = readFileSync(`/proc/${grandchild}/stat`, 'utf8');
        return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      } catch {
        return 'gone';
      }
    })();
    expect(['gone', 'Z', 'X']).to.include(state);
  });

  it('names a process by its script and the stages it runs, and a gone one null', async () => {
    const script = new URL('./process-tree.spec.ts', import.meta.url).pathname;
    // Node runs the spec file only as an argument here: -e keeps it alive without loading it.
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 10_000)', script], { stdio: 'ignore', env: { ...process.env, MEMORY_STAGES: 'enricher,temporal-resolver' } });
    const plain = spawn('sleep', ['10'], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(processName(child.pid!)).to.equal('process-tree.spec (enricher, temporal-resolver)');
      expect(processName(plain.pid!)).to.equal('sleep');
    } finally {
      child.kill();
      plain.kill();
      await Promise.all([once(child, 'exit'), once(plain, 'exit')]);
    }
    expect(processName(child.pid!)).to.equal(null);
  });
});
