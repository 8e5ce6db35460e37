import { expect } from 'chai';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ServiceProcess } from '@memory/testing';
import { memorydProcess } from './harness.js';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

/**
 * The embedded event log locks the data folder; opening a store may compact it (a rename over its file). A second
 * memoryd on a live data folder must stop at the lock before opening any store, or it would swap the running
 * process's key store file under it (the running process then writes keys to an unlinked file: lost).
 */
describe('a second memoryd on a live data folder', function () {
  this.timeout(180_000);

  it('fails on the folder lock and leaves the running process\'s key store file alone, even with a compaction pending', async () => {
    const running = memorydProcess();
    const second = new ServiceProcess({ entry: MAIN, dataDir: running.dataDir });
    try {
      await running.start();
      const keys = join(running.dataDir, 'keys');
      const marker = join(keys, 'compaction-pending');
      writeFileSync(marker, '');
      const before = statSync(join(keys, 'data.mdb')).ino;

      const failure = await second.start().then(() => null, (error: unknown) => String(error));
      expect(failure, 'the second memoryd started').to.not.equal(null);
      expect(failure).to.match(new RegExp(`failed to start: event log directory \\S+ is already open \\(pid ${running.pid}\\)`));
      expect(statSync(join(keys, 'data.mdb')).ino, 'the key store file was replaced').to.equal(before);
      expect(existsSync(marker), 'the pending compaction was carried out by the second process').to.equal(true);
      expect(existsSync(`${keys}.compacting`), 'the second process began a compaction').to.equal(false);
    } finally {
      await second.stop();
      await running.stop();
      running.cleanup();
    }
  });
});
