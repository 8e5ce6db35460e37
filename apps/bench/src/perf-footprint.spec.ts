import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { expect } from 'chai';
import { idleCpu } from './perf-footprint.js';

describe('idleCpu', () => {
  const children: ChildProcess[] = [];
  const start = async (args: string[]) => {
    const child = spawn(process.execPath, args, { stdio: 'ignore' });
    children.push(child);
    await once(child, 'spawn');
    return child.pid!;
  };
  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
  });

  it("reads a process's CPU over the window: near a core for one that spins, near nothing for one that waits", async function () {
    this.timeout(10_000);
    const [spinning, waiting] = await Promise.all([start(['-e', 'for (;;) {}']), start(['-e', 'setTimeout(() => {}, 30_000)'])]);
    // Past Node's own start, which is work.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const [busy, idle] = await Promise.all([idleCpu(spinning, 1), idleCpu(waiting, 1)]);
    expect(busy!.processes).to.have.length(1);
    // Shared cores on a busy machine give the spinning process less than all of one.
    expect(busy!.msPerS).to.be.above(150);
    expect(idle!.msPerS).to.be.below(50);
    expect(idle!.processes[0]!.msPerS).to.equal(idle!.msPerS);
  });

  it('is null where there is no process to read', async () => {
    expect(await idleCpu(null, 0)).to.equal(null);
  });
});
