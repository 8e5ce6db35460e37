import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { readAll, records, type EventLogContext } from './event-log-contract-support.js';
import { waitFor } from './wait-for.js';

const CHILD_SCRIPT = fileURLToPath(new URL('./event-log-crash-child.ts', import.meta.url));

interface Ack {
  partition: number;
  offset: number;
  key: string;
  seq: number;
}

export function describeEventLogDurability(ctx: EventLogContext): void {
  describe('durability', () => {
    it('keeps every record across close and reopen, and continues the offsets', async () => {
      const topic = await ctx.topic(2);
      const first = await ctx.log.append(topic, records(20, (i) => ({ key: `k${i % 3}`, value: Buffer.from(`v${i}`) })));
      const before = await readAll(ctx.log, topic);
      const log = await ctx.restart();
      expect(await log.partitionsOf(topic)).to.equal(2);
      expect(await readAll(log, topic)).to.deep.equal(before);
      const [next] = await log.append(topic, [{ key: 'k0', value: Buffer.from('after') }]);
      const lastBefore = Math.max(...first.filter((r) => r.partition === next!.partition).map((r) => r.offset));
      expect(next!.offset).to.equal(lastBefore + 1);
    });

    it('keeps every acknowledged append when the appending process is killed with SIGKILL', async function () {
      const child = ctx.harness.childProcess;
      if (!child) {
        console.log(`      (skipped: the adapter gives no childProcess recipe, so no second process can open its log)`);
        this.skip();
      }
      const topic = await ctx.topic(4);
      await ctx.closeCurrent(); // the child process becomes the only writer
      const acks = await runAndKill({ ...child, topic, producers: 8 }, 400);
      const log = await ctx.reopen();

      for (const ack of acks) {
        const [record] = await log.read(topic, ack.partition, ack.offset, 1);
        expect(record, `acknowledged ${ack.key}#${ack.seq} at ${ack.partition}/${ack.offset}`).to.not.equal(undefined);
        expect(record!.key).to.equal(ack.key);
        expect(record!.value.toString()).to.equal(`${ack.key}:${ack.seq}`);
      }
      // The survivors form an unbroken run per partition and the log accepts appends right after them.
      for (let partition = 0; partition < 4; partition++) {
        const stored = await log.read(topic, partition, 0, 1_000_000);
        expect(stored.map((r) => r.offset)).to.deep.equal(stored.map((_, i) => i));
      }
      const total = (await readAll(log, topic)).length;
      expect(total).to.be.at.least(acks.length);
      const [after] = await log.append(topic, [{ key: 'producer-0', value: Buffer.from('after-crash') }]);
      const samePartition = await log.read(topic, after!.partition, 0, 1_000_000);
      expect(samePartition[samePartition.length - 1]!.value.toString()).to.equal('after-crash');
    });
  });
}

/** Starts the crash child, lets it acknowledge at least `minAcks` records, kills it with SIGKILL mid-stream. */
async function runAndKill(config: object, minAcks: number): Promise<Ack[]> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', CHILD_SCRIPT, JSON.stringify(config)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const acks: Ack[] = [];
  let stderr = '';
  let buffered = '';
  let exited = false;
  const exit = new Promise<void>((resolve) => child.on('close', () => { exited = true; resolve(); }));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      const [tag, partition, offset, key, seq] = line.split(' ');
      if (tag === 'ack') acks.push({ partition: Number(partition), offset: Number(offset), key: key!, seq: Number(seq) });
    }
  });
  try {
    await waitFor(() => acks.length >= minAcks || exited, `${minAcks} acknowledged appends from the child`, 20_000);
    if (exited) throw new Error(`the append child exited on its own:\n${stderr}`);
  } finally {
    child.kill('SIGKILL');
    await exit;
  }
  return acks;
}
