import { open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { MemoryServiceError } from '@memory/platform';

const LOCK_FILE = 'eventlog.lock';

/** Directories this process holds, so a second open in the same process fails like one from another process. */
const heldHere = new Set<string>();

export interface DirLock {
  release(): Promise<void>;
}

/**
 * One writer per log directory: offsets are handed out from memory, so two processes appending to the same
 * directory would hand out the same offsets. The lock file holds the owner's pid; a lock whose pid is no longer
 * running (the owner was killed) is taken over.
 */
export async function lockDir(dir: string): Promise<DirLock> {
  const path = join(dir, LOCK_FILE);
  if (heldHere.has(path)) throw busy(dir, process.pid);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(path, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      heldHere.add(path);
      return {
        async release() {
          heldHere.delete(path);
          await rm(path, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number((await readFile(path, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) throw busy(dir, owner);
      await rm(path, { force: true }); // stale: its owner died without releasing it
    }
  }
  throw busy(dir, undefined);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function busy(dir: string, owner: number | undefined): MemoryServiceError {
  return new MemoryServiceError('EVENTLOG.DIR_LOCKED', `event log directory ${dir} is already open${owner ? ` (pid ${owner})` : ''}`, {
    details: { dir, owner },
  });
}
