import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { expect } from 'chai';
import { anonymousMb, proportionalMb, residentMb } from './resident-memory.js';

describe('resident memory', () => {
  it('reads a live process: its proportional share at most its resident memory, which counts the pages it shares in full', async () => {
    // A second Node process maps the same binary, so some of this one's resident pages are shared.
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 10_000)'], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const [rss, pss] = [residentMb(process.pid), proportionalMb(process.pid)];
      expect(rss).to.be.greaterThan(10);
      expect(pss).to.be.greaterThan(10);
      expect(pss!).to.be.lessThan(rss!);
      // The heap is anonymous, the mapped binary is not.
      const anonymous = anonymousMb(process.pid);
      expect(anonymous).to.be.greaterThan(5);
      expect(anonymous!).to.be.lessThan(rss!);
    } finally {
      other.kill();
      await once(other, 'exit');
    }
  });

  it('answers null for no process and for one that is gone', async () => {
    expect(residentMb(null)).to.equal(null);
    expect(proportionalMb(null)).to.equal(null);
    expect(anonymousMb(null)).to.equal(null);
    const gone = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    await once(gone, 'exit');
    expect(residentMb(gone.pid!)).to.equal(null);
    expect(proportionalMb(gone.pid!)).to.equal(null);
    expect(anonymousMb(gone.pid!)).to.equal(null);
  });
});
