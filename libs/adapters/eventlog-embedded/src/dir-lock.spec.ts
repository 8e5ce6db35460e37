import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bootId, createLogger, loaderFlags, processStartTime } from '@memory/platform';
import { expectCode, waitFor } from '@memory/testing';
import { createEmbeddedEventLog } from './index.js';

const CHILD = fileURLToPath(new URL('../test/lock-child.ts', import.meta.url));
const LOCK_FILE = 'eventlog.lock';
const logger = createLogger({ component: 'eventlog-embedded' }, 'error');

/** A lock child (test/lock-child.ts) and the lines it has printed so far. */
class LockChild {
  readonly lines: string[] = [];
  private readonly exited: Promise<unknown>;

  constructor(dir: string, private readonly process: ChildProcess = spawn(globalThis.process.execPath, [...loaderFlags(CHILD), CHILD, dir], { stdio: ['pipe', 'pipe', 'inherit'] })) {
    this.exited = once(this.process, 'exit');
    let buffered = '';
    this.process.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      this.lines.push(...lines);
    });
  }

  get pid(): number { return this.process.pid!; }
  get ready(): boolean { return this.lines.includes('ready'); }
  /** `won`, `lost <code>`, or undefined while it has not answered. */
  get outcome(): string | undefined { return this.lines.find((line) => line === 'won' || line.startsWith('lost ')); }

  send(command: 'lock' | 'open'): void { this.process.stdin!.write(`${command}\n`); }

  async stop(): Promise<void> {
    if (this.process.exitCode === null && this.process.signalCode === null) this.process.kill('SIGKILL');
    await this.exited;
  }
}

async function raceForLock(dir: string, contenders: number): Promise<LockChild[]> {
  const children = Array.from({ length: contenders }, () => new LockChild(dir));
  await waitFor(() => children.every((child) => child.ready), `${contenders} lock children ready`, 60_000);
  for (const child of children) child.send('lock');
  await waitFor(() => children.every((child) => child.outcome !== undefined), 'every contender\'s outcome', 60_000);
  return children;
}

describe('eventlog-embedded directory lock', function () {
  this.timeout(120_000);
  let dir: string;
  const children: LockChild[] = [];
  const others: ChildProcess[] = [];
  beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'eventlog-lock-'))));
  afterEach(async () => {
    await Promise.all(children.splice(0).map((child) => child.stop()));
    for (const other of others.splice(0)) other.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });

  it('takes over a lock whose pid now belongs to an unrelated live process (another start time, or another boot)', async () => {
    const sleeper = spawn('sleep', ['60'], { stdio: 'ignore' });
    others.push(sleeper);
    await waitFor(() => processStartTime(sleeper.pid!) !== null, 'sleep running');
    const boot = bootId();
    expect(boot, 'this spec needs /proc').to.be.a('string');
    // The owner was another process with the same pid number: started at another time, or before a reboot.
    const stale = [
      { pid: sleeper.pid, startTime: String(Number(processStartTime(sleeper.pid!)) - 1), bootId: boot, nonce: 'earlier' },
      { pid: sleeper.pid, startTime: processStartTime(sleeper.pid!), bootId: '00000000-0000-0000-0000-000000000000', nonce: 'last-boot' },
    ];
    for (const owner of stale) {
      await writeFile(join(dir, LOCK_FILE), JSON.stringify(owner));
      const log = await createEmbeddedEventLog({ dir, logger });
      const taken = JSON.parse(await readFile(join(dir, LOCK_FILE), 'utf8')) as { pid: number; startTime: string; bootId: string };
      expect(taken).to.include({ pid: process.pid, startTime: processStartTime(process.pid), bootId: boot });
      await log.close();
    }
  });

  it('respects a lock its live owner holds, and takes it over once the owner is killed', async () => {
    const owner = new LockChild(dir);
    children.push(owner);
    await waitFor(() => owner.ready, 'the owner ready', 60_000);
    owner.send('open');
    await waitFor(() => owner.outcome !== undefined, 'the owner opened the log', 60_000);
    expect(owner.outcome).to.equal('won');
    const refused = await expectCode(createEmbeddedEventLog({ dir, logger }), 'EVENTLOG.DIR_LOCKED');
    expect((refused as unknown as { details?: Record<string, unknown> }).details).to.include({ owner: owner.pid });
    await owner.stop();
    await (await createEmbeddedEventLog({ dir, logger })).close();
  });

  it('lets exactly one of many processes racing for the same stale lock win, for an old pid-only lock and for ours', async () => {
    // A pid that is no longer running, in the format the lock had before start times were recorded.
    const gone = spawn('true');
    await once(gone, 'exit');
    await writeFile(join(dir, LOCK_FILE), String(gone.pid));
    for (let round = 0; round < 2; round++) {
      const contenders = await raceForLock(dir, 20);
      children.push(...contenders);
      const winners = contenders.filter((child) => child.outcome === 'won');
      expect(winners.map((child) => child.pid), `round ${round}: the winners`).to.have.length(1);
      for (const loser of contenders.filter((child) => child !== winners[0])) expect(loser.outcome).to.equal('lost EVENTLOG.DIR_LOCKED');
      // The winner dies holding the lock: the next round races for its stale lock, in the format written now.
      await Promise.all(children.splice(0).map((child) => child.stop()));
    }
  });
});
