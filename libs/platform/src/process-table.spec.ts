import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { expect } from 'chai';
import { bootId, cpuTimeMs, processStartTime, processTree, threadNiceness } from './process-table.js';

describe('process table', () => {
  it('finds a process\'s child and grandchild', async function () {
    this.timeout(10_000);
    // A shell that starts a sleeping grandchild and waits for it.
    const child = spawn('sh', ['-c', 'sleep 30 & wait'], { stdio: 'ignore' });
    try {
      let tree: number[] = [];
      for (let i = 0; i < 50 && tree.length < 2; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        tree = processTree(child.pid!);
      }
      expect(tree[0]).to.equal(child.pid);
      expect(tree).to.have.length(2);
      expect(processTree(process.pid)).to.include.members(tree);
    } finally {
      for (const pid of processTree(child.pid!).reverse()) process.kill(pid, 'SIGKILL');
      await once(child, 'exit');
    }
  });

  it('reads the CPU a process has used, and null once it is gone', async function () {
    this.timeout(10_000);
    const busy = spawn(process.execPath, ['-e', 'const end = Date.now() + 400; while (Date.now() < end);'], { stdio: 'ignore' });
    const exited = once(busy, 'exit');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(cpuTimeMs(busy.pid!)).to.be.greaterThan(100);
    await exited;
    expect(cpuTimeMs(busy.pid!)).to.equal(null);
  });

  it('reads the niceness of every thread of a process', async function () {
    this.timeout(10_000);
    const own = threadNiceness(process.pid);
    expect(own.length, 'Node starts threads of its own').to.be.greaterThan(1);
    const niced = spawn('nice', ['-n', '5', process.execPath, '-e', 'setTimeout(() => {}, 10_000)'], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const threads = threadNiceness(niced.pid!);
      expect(threads.length).to.be.greaterThan(1);
      expect(new Set(threads)).to.deep.equal(new Set([Math.min(19, own[0]! + 5)]));
    } finally {
      niced.kill();
      await once(niced, 'exit');
    }
    expect(threadNiceness(niced.pid!)).to.deep.equal([]);
  });

  it('reads when a process started, which tells it from a later one with the same pid, and this boot\'s id', async function () {
    this.timeout(10_000);
    const first = spawn('sleep', ['30'], { stdio: 'ignore' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      const own = processStartTime(process.pid);
      expect(own).to.match(/^\d+$/);
      // Ticks are 10 ms: processes started 50 ms apart have different start times, and later ones larger.
      const [a, b] = [Number(processStartTime(first.pid!)), Number(processStartTime(second.pid!))];
      expect(a).to.be.greaterThan(Number(own));
      expect(b).to.be.greaterThan(a);
    } finally {
      first.kill();
      second.kill();
      await Promise.all([once(first, 'exit'), once(second, 'exit')]);
    }
    expect(processStartTime(first.pid!)).to.equal(null);
    expect(bootId()).to.match(/^[0-9a-f-]{36}$/).and.to.equal(bootId());
  });
});
