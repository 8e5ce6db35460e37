import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { killTree, processTree } from './process-tree.js';

describe('process tree', () => {
  it('finds a child and its grandchild, and kills all of them', async function () {
    this.timeout(10_000);
    // A shell that starts a sleeping grandchild and waits for it.
    const child = spawn('sh', ['-c', 'sleep 30 & wait'], { stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    let tree: number[] = [];
    for (let i = 0; i < 50 && tree.length < 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      tree = processTree(child.pid!);
    }
    expect(tree[0]).to.equal(child.pid);
    expect(tree).to.have.length(2);
    expect(processTree(process.pid)).to.include(child.pid);
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
});
