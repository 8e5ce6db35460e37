import { createHash, randomBytes } from 'node:crypto';
import { link, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bootId, MemoryServiceError, processStartTime } from '@memory/platform';

const LOCK_FILE = 'eventlog.lock';
/** Files beside the lock: `<lock>.tmp-<nonce>` (an attempt's own content) and `<lock>.takeover-<digest>.<slot>`. */
const TEMP_PREFIX = `${LOCK_FILE}.tmp-`;
const CLAIM_PREFIX = `${LOCK_FILE}.takeover-`;
/** Claim slots per stale lock: one more each time a claimant dies mid-takeover, so a handful is plenty. */
const MAX_CLAIM_SLOTS = 16;

/** Directories this process holds, so a second open in the same process fails like one from another process. */
const heldHere = new Set<string>();

export interface DirLock {
  release(): Promise<void>;
}

/**
 * Who holds a lock. A pid alone names a process only until it exits: after a reboot, or once pids wrap, the same
 * number belongs to an unrelated process. With its start time and the boot id it names one process for good. A lock
 * written before these were recorded, or where there is no /proc (macOS), has the pid only.
 */
interface Owner {
  pid: number;
  startTime?: string;
  bootId?: string;
  /** Unique to one taking of the lock, so the content of a stale lock can never be written again. */
  nonce?: string;
}

/**
 * One writer per log directory: offsets are handed out from memory, so two processes appending to the same
 * directory would hand out the same offsets. The lock file names its owner; a lock whose owner is no longer running
 * (it was killed, or the machine rebooted) is taken over, by exactly one of the processes trying at the same time.
 */
export async function lockDir(dir: string): Promise<DirLock> {
  const path = join(dir, LOCK_FILE);
  if (heldHere.has(path)) throw busy(dir, process.pid);
  // Taken at once, before any await: a second attempt in this process then fails here rather than racing this one,
  // and a lock naming this process that is not in the set is a leftover, not held.
  heldHere.add(path);
  try {
    const content = JSON.stringify(ownIdentity());
    await acquire(dir, path, content);
    await sweep(dir);
    return {
      async release() {
        // Only our own lock goes: after a takeover the file names someone else.
        if ((await readIfExists(path)) === content) await rm(path, { force: true });
        heldHere.delete(path);
      },
    };
  } catch (error) {
    heldHere.delete(path);
    throw error;
  }
}

function ownIdentity(): Owner {
  const startTime = processStartTime(process.pid);
  const boot = bootId();
  return { pid: process.pid, ...(startTime && boot ? { startTime, bootId: boot } : {}), nonce: randomBytes(8).toString('hex') };
}

/**
 * The lock is made by `link`ing a file already holding our content to the lock's name: link fails if the name
 * exists, so the creation is exclusive, and nobody ever reads a lock that is created but still empty.
 */
async function acquire(dir: string, path: string, content: string): Promise<void> {
  const mine = join(dir, `${TEMP_PREFIX}${randomBytes(8).toString('hex')}`);
  await writeFile(mine, content, { flag: 'wx' });
  try {
    for (let attempt = 0; attempt < 8; attempt++) {
      if (await linked(mine, path)) return;
      const current = await readIfExists(path);
      if (current === undefined) continue; // released since
      const owner = parseOwner(current);
      if (owner && isRunning(owner)) throw busy(dir, owner.pid);
      if (await replaceStale(dir, path, current, mine)) return;
    }
    throw busy(dir, undefined);
  } finally {
    await rm(mine, { force: true });
  }
}

/**
 * Replaces the stale lock `stale` with ours, unless another process does it first. Deleting the stale file and then
 * creating ours is not safe: a slower taker's delete would remove the lock a faster one had just created, and both
 * would go on. Instead the takers of one stale content race to create its claim file (`link`, exclusive): one wins,
 * the others see a live claimant and give up. Only the winner changes the lock, and it renames its file over the lock
 * (atomic) after checking the lock still holds `stale`; nobody else can have changed it since: the stale owner is
 * not running, and an earlier claimant of `stale` is either dead or removed its claim only once the lock no longer
 * held `stale`, in which case the check fails. A claimant that dies mid-takeover leaves its claim (swept later); the
 * next takers use the next slot. The nonce makes every lock's content unique, so a late claim on a content long
 * replaced only finds the check failing.
 */
async function replaceStale(dir: string, path: string, stale: string, mine: string): Promise<boolean> {
  const claimBase = join(dir, `${CLAIM_PREFIX}${createHash('sha256').update(stale).digest('hex').slice(0, 24)}`);
  for (let slot = 1; slot <= MAX_CLAIM_SLOTS; slot++) {
    const claim = `${claimBase}.${slot}`;
    if (await linked(mine, claim)) {
      try {
        if ((await readIfExists(path)) !== stale) return false; // replaced already, by an earlier claimant
        await rename(mine, path);
        return true;
      } finally {
        // Only our own claim: another's may be live, and a taker finding its slot free would claim it a second time.
        await rm(claim, { force: true });
      }
    }
    const claimant = parseOwner((await readIfExists(claim)) ?? '');
    if (!claimant) return false; // the claim went: its winner has replaced the lock
    if (isRunning(claimant)) throw busy(dir, claimant.pid);
  }
  throw busy(dir, undefined);
}

/**
 * Removes what crashed attempts left beside the lock: temporary files and claims of processes no longer running.
 * Only a lock holder sweeps, and a claim on any content but its own lock can no longer change the lock.
 */
async function sweep(dir: string): Promise<void> {
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!name.startsWith(TEMP_PREFIX) && !name.startsWith(CLAIM_PREFIX)) continue;
    // One without an owner yet may be another process's attempt being written: left alone.
    const owner = parseOwner((await readIfExists(join(dir, name))) ?? '');
    if (owner && !isRunning(owner)) await rm(join(dir, name), { force: true });
  }
}

/** Whether the process a lock or claim names is still the one that wrote it. */
function isRunning(owner: Owner): boolean {
  // This process holds its locks in heldHere: one naming it here is left from an earlier open that was not released.
  if (owner.pid === process.pid) return false;
  if (!pidAlive(owner.pid)) return false;
  if (owner.startTime === undefined || owner.bootId === undefined) return true; // the pid is all there is to check
  const boot = bootId();
  if (boot === null) return true;
  if (boot !== owner.bootId) return false; // written before a reboot
  const startTime = processStartTime(owner.pid);
  // Unreadable (/proc mounted with hidepid, or it exited just now): assume it is the owner rather than take its lock.
  return startTime === null || startTime === owner.startTime;
}

function parseOwner(content: string): Owner | undefined {
  const text = content.trim();
  if (/^\d+$/.test(text)) return { pid: Number(text) }; // the format before start times were recorded
  try {
    const owner = JSON.parse(text) as Owner;
    return Number.isInteger(owner?.pid) && owner.pid > 0 ? owner : undefined;
  } catch {
    return undefined; // empty or torn: no owner to wait for
  }
}

async function linked(existing: string, name: string): Promise<boolean> {
  try {
    await link(existing, name);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function pidAlive(pid: number): boolean {
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
