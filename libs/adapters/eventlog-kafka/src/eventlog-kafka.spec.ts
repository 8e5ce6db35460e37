import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { connect, Socket } from 'node:net';
import { Kafka, logLevel, type ISocketFactory } from 'kafkajs';
import { createLogger, type Logger } from '@memory/platform';
import type { Consumer, EventLog, LogRecord } from '@memory/ports';
import { partitionFor } from '@memory/contracts';
import { describeEventLogContract, describeWithEngine, expectCode, localEngines, records, sleep, uniqueName, waitFor } from '@memory/testing';
import { JoinGate, KafkaGroupConsumer } from './group-consumer.js';
import { brokersFrom, openKafkaEventLog, type KafkaEventLogOptions } from './index.js';

const brokers = brokersFrom(process.env['KAFKA_BROKERS'] || '127.0.0.1:9092');

// Test timings: a group's stop waits for the idle fetch in flight (maxWaitMs), redeliveries back off
// (retry*Ms); production keeps the defaults. JSON-only, because the crash test's child process gets them too.
const options: KafkaEventLogOptions = {
  brokers,
  clientId: 'eventlog-contract',
  sessionTimeoutMs: 6_000,
  heartbeatIntervalMs: 500,
  maxWaitMs: 100,
  retryInitialMs: 20,
  retryMaxMs: 200,
};
// Handler failures are expected in the suite (redelivery tests) and logged as warnings; keep the output readable.
const logger = createLogger({ component: 'eventlog-kafka' }, 'error');

/** Remembers every topic the suite creates, so cleanup can delete them from the shared broker. */
function recordingTopics(log: EventLog, created: Set<string>): EventLog {
  return {
    ensureTopics: (topics) => {
      for (const topic of topics) created.add(topic.name);
      return log.ensureTopics(topics);
    },
    append: (topic, batch) => log.append(topic, batch),
    consume: (consumerOptions) => log.consume(consumerOptions),
    resetOffsets: (group, topic, to) => log.resetOffsets(group, topic, to),
    lag: (group, topic) => log.lag(group, topic),
    read: (topic, partition, from, max) => log.read(topic, partition, from, max),
    partitionsOf: (topic) => log.partitionsOf(topic),
    close: () => log.close(),
  };
}

const adminKafka = new Kafka({ brokers, clientId: 'eventlog-contract-admin', logLevel: logLevel.NOTHING });

async function deleteTopics(topics: Set<string>): Promise<void> {
  if (topics.size === 0) return;
  const admin = adminKafka.admin();
  await admin.connect();
  try {
    await admin.deleteTopics({ topics: [...topics], timeout: 10_000 }).catch(() => undefined);
  } finally {
    await admin.disconnect();
  }
}

/**
 * Connections to the broker that the test can cut and restore, the way a broker restart or a network partition
 * does: cut() destroys the open sockets and refuses new ones until restore().
 */
function cuttableNetwork(): { socketFactory: ISocketFactory; cut(): void; restore(): void } {
  const open = new Set<Socket>();
  let down = false;
  return {
    socketFactory: ({ host, port, onConnect }) => {
      if (down) {
        const refused = new Socket();
        process.nextTick(() => refused.destroy(Object.assign(new Error(`connect ECONNREFUSED ${host}:${port} (cut by the test)`), { code: 'ECONNREFUSED' })));
        return refused;
      }
      const socket = connect({ host, port }, onConnect);
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      return socket;
    },
    cut() {
      down = true;
      for (const socket of open) socket.destroy(new Error('connection cut by the test'));
    },
    restore() {
      down = false;
    },
  };
}

/** A logger that keeps every message it is given (to see what the adapter reported), printing none. */
function recordingLogger(said: string[]): Logger {
  const logger: Logger = {
    debug: (msg) => void said.push(msg),
    info: (msg) => void said.push(msg),
    warn: (msg) => void said.push(msg),
    error: (msg) => void said.push(msg),
    child: () => logger,
  };
  return logger;
}

describeWithEngine(
  'eventlog-kafka against a real broker',
  localEngines().kafka,
  () => {
    describeEventLogContract('eventlog-kafka', async () => {
      const created = new Set<string>();
      const open = async () => recordingTopics(await openKafkaEventLog({ ...options, logger }), created);
      return {
        log: await open(),
        reopen: open,
        cleanup: () => deleteTopics(created),
        childProcess: { module: '@memory/eventlog-kafka', exportName: 'openKafkaEventLog', options },
      };
    });

    describe('eventlog-kafka specifics', function () {
      this.timeout(30_000);
      let log: EventLog;
      const created = new Set<string>();
      const topic = async (partitions: number, retentionMs?: number) => {
        const name = uniqueName('kafka-specific');
        created.add(name);
        await log.ensureTopics([{ name, partitions, ...(retentionMs ? { retentionMs } : {}) }]);
        return name;
      };

      beforeEach(async () => {
        log = await openKafkaEventLog({ ...options, logger });
      });
      afterEach(async () => {
        await log.close();
        await deleteTopics(created);
        created.clear();
      });

      it('creates topics with their partitions, the replication factor, retention (forever by default), log-append timestamps and min.insync.replicas', async () => {
        const forever = await topic(2);
        const week = await topic(1, 7 * 24 * 3_600_000);
        const admin = adminKafka.admin();
        await admin.connect();
        try {
          const { resources } = await admin.describeConfigs({
            includeSynonyms: false,
            resources: [forever, week].map((name) => ({ type: 2, name, configNames: ['retention.ms', 'message.timestamp.type', 'min.insync.replicas'] })),
          });
          const config = (name: string) => Object.fromEntries(resources.find((r) => r.resourceName === name)!.configEntries.map((e) => [e.configName, e.configValue]));
          // One replica on the local broker, so one in sync (two with two replicas or more: topic-config.spec.ts).
          expect(config(forever)).to.deep.equal({ 'retention.ms': '-1', 'message.timestamp.type': 'LogAppendTime', 'min.insync.replicas': '1' });
          expect(config(week)).to.deep.equal({ 'retention.ms': String(7 * 24 * 3_600_000), 'message.timestamp.type': 'LogAppendTime', 'min.insync.replicas': '1' });
          const { topics } = await admin.fetchTopicMetadata({ topics: [forever] });
          expect(topics[0]!.partitions.map((p) => p.replicas.length)).to.deep.equal([1, 1]);
        } finally {
          await admin.disconnect();
        }
      });

      it('validates topic specs, records, partitions and offsets before talking to the broker', async () => {
        await expectCode(log.ensureTopics([{ name: 'has space', partitions: 1 }]), 'EVENTLOG.INVALID_TOPIC');
        await expectCode(log.ensureTopics([{ name: uniqueName('bad'), partitions: 1.5 }]), 'EVENTLOG.INVALID_TOPIC');
        await expectCode(log.ensureTopics([{ name: uniqueName('bad'), partitions: 1, retentionMs: -5 }]), 'EVENTLOG.INVALID_TOPIC');
        const name = await topic(2);
        await expectCode(log.append(name, [{ key: 'k', value: 'not a buffer' as unknown as Buffer }]), 'EVENTLOG.INVALID_RECORD');
        await expectCode(log.read(name, 2, 0, 1), 'EVENTLOG.UNKNOWN_PARTITION');
        await expectCode(log.read(name, 0, -1, 1), 'EVENTLOG.INVALID_OFFSET');
        await expectCode(log.resetOffsets(uniqueName('g'), name, { kind: 'offset', offset: -3 }), 'EVENTLOG.INVALID_OFFSET');
        await expectCode(log.consume({ group: uniqueName('g'), topics: [name], handler: async () => {}, maxBatchSize: 0 }), 'EVENTLOG.INVALID_CONSUMER');
      });

      it('reads and starts groups from the log start once older records are deleted', async () => {
        const name = await topic(1);
        await log.append(name, records(10, (i) => ({ key: 'k', value: Buffer.from(String(i)) })));
        const admin = adminKafka.admin();
        await admin.connect();
        try {
          await admin.fetchTopicMetadata({ topics: [name] }); // deleteTopicRecords needs the leader from loaded metadata
          await admin.deleteTopicRecords({ topic: name, partitions: [{ partition: 0, offset: '4' }] });
        } finally {
          await admin.disconnect();
        }
        expect((await log.read(name, 0, 0, 100)).map((r) => r.offset)).to.deep.equal([4, 5, 6, 7, 8, 9]);
        const group = uniqueName('g');
        expect((await log.lag(group, name))[0]).to.include({ committed: 4, end: 10 });
        const seen: number[] = [];
        const consumer = await log.consume({ group, topics: [name], handler: async (batch) => void seen.push(...batch.map((r) => r.offset)) });
        await waitFor(() => seen.length >= 6, 'the retained records');
        await consumer.stop();
        expect(seen).to.deep.equal([4, 5, 6, 7, 8, 9]);
      });

      it('refuses to reset a group that runs, here or in another process, with EVENTLOG.GROUP_BUSY', async () => {
        const name = await topic(1);
        const group = uniqueName('g');
        const consumer = await log.consume({ group, topics: [name], handler: async () => {} });
        const elsewhere = await openKafkaEventLog({ ...options, logger });
        try {
          await expectCode(log.resetOffsets(group, name, { kind: 'earliest' }), 'EVENTLOG.GROUP_BUSY');
          await expectCode(elsewhere.resetOffsets(group, name, { kind: 'earliest' }), 'EVENTLOG.GROUP_BUSY');
          await consumer.stop();
          await elsewhere.resetOffsets(group, name, { kind: 'latest' });
        } finally {
          await consumer.stop();
          await elsewhere.close();
        }
      });

      it('fails consume with EVENTLOG.INVALID_CONSUMER when the broker refuses the group settings', async () => {
        const name = await topic(1);
        // Brokers refuse sessions shorter than group.min.session.timeout.ms (6 s by default).
        const strict = await openKafkaEventLog({ ...options, sessionTimeoutMs: 1_500, heartbeatIntervalMs: 500, logger });
        try {
          await expectCode(strict.consume({ group: uniqueName('g'), topics: [name], handler: async () => {} }), 'EVENTLOG.INVALID_CONSUMER');
        } finally {
          await strict.close();
        }
      });

      it('delivers again what a consumer killed with SIGKILL had handled but not committed', async function () {
        this.timeout(40_000);
        const name = await topic(1);
        const group = uniqueName('g');
        await log.append(name, records(5, (i) => ({ key: 'k', value: Buffer.from(String(i)) })));
        // The child consumes with a handler that reports the batch and never finishes, then dies mid-batch.
        const script = `
          import { openKafkaEventLog } from '@memory/eventlog-kafka';
          const log = await openKafkaEventLog(${JSON.stringify({ ...options, clientId: 'crash-consumer' })});
          await log.consume({ group: ${JSON.stringify(group)}, topics: [${JSON.stringify(name)}], handler: (batch) => {
            process.stdout.write('batch ' + batch.map((r) => r.offset).join(',') + '\\n');
            return new Promise(() => {});
          } });`;
        const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
        const exited = new Promise((resolve) => child.on('close', resolve));
        try {
          await waitFor(() => out.includes('batch 0,1,2,3,4') || child.exitCode !== null, 'the child to receive the batch', 20_000);
          expect(out, err).to.include('batch 0,1,2,3,4');
        } finally {
          child.kill('SIGKILL');
          await exited;
        }
        // The dead member holds the partition until its session times out; then the group moves it here.
        const seen: number[] = [];
        const consumer = await log.consume({ group, topics: [name], handler: async (batch) => void seen.push(...batch.map((r) => r.offset)) });
        await waitFor(() => seen.length >= 5, 'the uncommitted records again', 20_000);
        await consumer.stop();
        expect(seen).to.deep.equal([0, 1, 2, 3, 4]);
        expect((await log.lag(group, name))[0]).to.include({ committed: 5, end: 5 });
      });

      it('opens when its first connect fails (a broker starting, a metadata hiccup), trying again before refusing to start', async () => {
        const network = cuttableNetwork();
        network.cut();
        let refused = 0;
        const said: string[] = [];
        // The first connect (with kafkajs' one retry: two sockets) meets a refusing broker; the next one gets through.
        const factory: ISocketFactory = (args) => {
          if (++refused === 2) setImmediate(() => network.restore());
          return network.socketFactory(args);
        };
        const opened = await openKafkaEventLog({ ...options, retries: 1, socketFactory: factory, logger: recordingLogger(said) });
        try {
          expect(said).to.include('could not connect to Kafka, trying again');
          const name = await topic(1);
          await opened.append(name, [{ key: 'k', value: Buffer.from('v') }]);
        } finally {
          await opened.close();
        }
      });

      it('a consumer that kafkajs restarted after losing the broker rejoins its group at once, not after the old session times out', async function () {
        this.timeout(90_000);
        const name = await topic(1);
        const group = uniqueName('g');
        const network = cuttableNetwork();
        const said: string[] = [];
        // Production's session timeout, so that waiting for the old member's session stands out; few retries, so
        // kafkajs gives up on the lost connection (and restarts the consumer) quickly.
        const cut = await openKafkaEventLog({
          ...options, sessionTimeoutMs: 30_000, heartbeatIntervalMs: 3_000, retries: 2, socketFactory: network.socketFactory, logger: recordingLogger(said),
        });
        const seen: string[] = [];
        try {
          const consumer = await cut.consume({ group, topics: [name], handler: async (batch) => void seen.push(...batch.map((r) => r.value.toString())) });
          await log.append(name, [{ key: 'k', value: Buffer.from('before') }]);
          await waitFor(() => seen.includes('before'), 'the first record', 20_000);
          await waitFor(async () => (await log.lag(group, name))[0]?.committed === 1, 'the first record committed', 20_000);
          network.cut();
          await waitFor(() => said.includes('the Kafka consumer failed and restarts'), 'kafkajs to restart the consumer', 30_000);
          await sleep(1_000);
          network.restore();
          const restored = Date.now();
          await log.append(name, [{ key: 'k', value: Buffer.from('after') }]);
          await waitFor(() => seen.includes('after'), 'the record appended after the network came back', 45_000);
          const waitedMs = Date.now() - restored;
          await consumer.stop();
          // Without the removal the rejoin waits for the old member's 30 s session (from its last heartbeat).
          expect(waitedMs, `waited ${waitedMs} ms`).to.be.below(15_000);
          expect(said).to.include('removed the member id this consumer held before its restart');
          expect(seen.filter((value) => value === 'before').length, 'the committed record is not delivered again').to.equal(1);
        } finally {
          network.restore();
          await cut.close();
        }
      });

      it('starts a consumer again after a crash kafkajs does not restart from, and delivers what came meanwhile', async function () {
        this.timeout(60_000);
        const name = await topic(1);
        const group = uniqueName('g');
        const said: string[] = [];
        const kafka = new Kafka({ brokers, clientId: 'eventlog-contract-crash', logLevel: logLevel.NOTHING });
        const gate = new JoinGate();
        const real = kafka.consumer({ groupId: group, partitionAssigners: [gate.assigner], sessionTimeout: 6_000, heartbeatInterval: 500, maxWaitTimeInMs: 100 });
        // The fault: the first fetch's batch throws a TypeError inside kafkajs's runner, which it counts as not
        // retriable: it crashes with restart false, as it does on some protocol errors while a broker comes back.
        let thrown = false;
        const faulty = {
          ...real,
          run: (config: Parameters<typeof real.run>[0]) => real.run({
            ...config,
            eachBatch: async (payload) => {
              if (!thrown) {
                thrown = true;
                throw new TypeError('injected by the test');
              }
              return config!.eachBatch!(payload);
            },
          }),
        };
        const seen: string[] = [];
        const consumer = new KafkaGroupConsumer(
          faulty,
          { group, topics: [name], handler: async (batch) => void seen.push(...batch.map((r) => r.value.toString())), maxBatchSize: 10, batchesInFlight: 1, concurrency: 1, fromBeginning: true, heartbeatIntervalMs: 500, rebalanceTimeoutMs: 60_000, retryInitialMs: 20, retryMaxMs: 200 },
          recordingLogger(said),
          () => undefined,
          async () => true,
          gate,
        );
        await log.append(name, [{ key: 'k', value: Buffer.from('one') }]);
        await consumer.start();
        try {
          await waitFor(() => thrown, 'the injected crash', 20_000);
          await log.append(name, [{ key: 'k', value: Buffer.from('two') }]);
          await waitFor(() => seen.includes('one') && seen.includes('two'), 'both records after the crash', 30_000);
          expect(said).to.include('the Kafka consumer stopped after an error kafkajs does not retry; starting it again');
          expect(said).to.include('the Kafka consumer runs again');
        } finally {
          await consumer.stop();
        }
      });

      it('shares a group between two logs (two processes): each record is handled once, in order per key', async () => {
        const name = await topic(4);
        const group = uniqueName('g');
        const other = await openKafkaEventLog({ ...options, logger });
        const handled = new Map<string, number[]>();
        const handler = async (batch: { key: string; value: Buffer }[]) => {
          for (const r of batch) handled.set(r.key, [...(handled.get(r.key) ?? []), Number(r.value.toString())]);
        };
        try {
          const [a, b] = await Promise.all([log.consume({ group, topics: [name], handler }), other.consume({ group, topics: [name], handler })]);
          await log.append(name, records(80, (i) => ({ key: `user-${i % 8}`, value: Buffer.from(String(i)) })));
          await waitFor(() => [...handled.values()].reduce((n, v) => n + v.length, 0) >= 80, '80 records over two members', 20_000);
          await sleep(200);
          await Promise.all([a.stop(), b.stop()]);
          for (let k = 0; k < 8; k++) {
            expect(handled.get(`user-${k}`), `user-${k}`).to.deep.equal(Array.from({ length: 10 }, (_, j) => k + 8 * j));
          }
        } finally {
          await other.close();
        }
      });

      it('with batches in flight, a member joining midway (a rebalance) loses nothing and commits nothing unhandled', async () => {
        const name = await topic(4);
        const group = uniqueName('g');
        const other = await openKafkaEventLog({ ...options, logger });
        const handled = new Map<string, number[]>();
        const members = new Set<string>();
        const handler = (member: string) => async (batch: { key: string; value: Buffer }[]) => {
          await sleep(250);
          members.add(member);
          for (const r of batch) handled.set(r.key, [...(handled.get(r.key) ?? []), Number(r.value.toString())]);
        };
        const consume = (on: EventLog, member: string) => on.consume({ group, topics: [name], handler: handler(member), maxBatchSize: 2, batchesInFlight: 4 });
        const distinct = () => new Set([...handled.values()].flat()).size;
        try {
          await log.append(name, records(240, (i) => ({ key: `user-${i % 8}`, value: Buffer.from(String(i)) })));
          const a = await consume(log, 'a');
          await waitFor(() => distinct() >= 8, 'the first member to be handling batches', 20_000);
          const b = await consume(other, 'b');
          await waitFor(() => distinct() >= 240, '240 records over two members', 30_000);
          await sleep(200);
          await Promise.all([a.stop(), b.stop()]);
          for (let k = 0; k < 8; k++) {
            // At-least-once: a batch in flight across the rebalance may come twice, but each key's first sightings are in order.
            const firsts = [...new Set(handled.get(`user-${k}`))];
            expect(firsts, `user-${k}`).to.deep.equal(Array.from({ length: 30 }, (_, j) => k + 8 * j));
          }
          expect([...members].sort(), 'the second member took partitions over').to.deep.equal(['a', 'b']);
          for (const { committed, end } of await log.lag(group, name)) expect(committed).to.equal(end);
        } finally {
          await other.close();
        }
      });

      it('with batches in flight, a rebalance waits for them: no partition is handled by two members at once, no commit goes back', async function () {
        this.timeout(120_000);
        const name = await topic(4);
        const group = uniqueName('g');
        const other = await openKafkaEventLog({ ...options, logger });
        // Two keys per partition, so each of the 4 partitions holds 10 of the 40 records.
        const keys: string[][] = [[], [], [], []];
        for (let i = 0; keys.some((k) => k.length < 2); i++) {
          const key = `user-${i}`;
          const slot = keys[partitionFor(key, 4)]!;
          if (slot.length < 2) slot.push(key);
        }
        const at = (r: { partition: number; offset: number }) => `${r.partition}:${r.offset}`;
        // Member A's batches start and wait at a gate the test holds shut; what they hold is `open`.
        const open = new Set<string>();
        let release!: () => void;
        const gate = new Promise<void>((resolve) => (release = resolve));
        const handledBy = { a: new Set<string>(), b: new Set<string>() };
        // Per member and partition, the offsets in the order the member's handler was given them.
        const given = { a: new Map<number, number[]>(), b: new Map<number, number[]>() };
        const overlaps: string[] = [];
        const note = (member: 'a' | 'b', batch: LogRecord[]) => {
          for (const r of batch) given[member].set(r.partition, [...(given[member].get(r.partition) ?? []), r.offset]);
        };
        const handlerA = async (batch: LogRecord[]) => {
          note('a', batch);
          for (const r of batch) open.add(at(r));
          await gate;
          for (const r of batch) {
            open.delete(at(r));
            handledBy.a.add(at(r));
          }
        };
        const handlerB = async (batch: LogRecord[]) => {
          note('b', batch);
          for (const r of batch) {
            if (open.has(at(r))) overlaps.push(at(r));
            handledBy.b.add(at(r));
          }
        };
        // The committed offsets, read over and over: none may go back.
        const committed = new Map<number, number[]>();
        let watching = true;
        const watch = (async () => {
          while (watching) {
            for (const { partition, committed: offset } of await log.lag(group, name).catch(() => [])) {
              const series = committed.get(partition) ?? [];
              if (series.at(-1) !== offset) committed.set(partition, [...series, offset]);
            }
            await sleep(100);
          }
        })();
        let a: Consumer | undefined;
        let b: Promise<Consumer> | undefined;
        try {
          await log.append(name, records(40, (i) => ({ key: keys[i % 4]![Math.floor(i / 4) % 2]!, value: Buffer.from(String(i)) })));
          a = await log.consume({ group, topics: [name], handler: handlerA, maxBatchSize: 2, batchesInFlight: 4 });
          await waitFor(() => new Set([...open].map((k) => k.split(':')[0])).size === 4, 'member A holding batches of every partition', 20_000);
          // B's join completes only once A rejoined, which A does only once its batches settled: not awaited here.
          b = other.consume({ group, topics: [name], handler: handlerB, maxBatchSize: 2, batchesInFlight: 4 });
          b.catch(() => undefined);
          await sleep(10_000);
          expect(overlaps, 'records member B was given while member A still handled them').to.deep.equal([]);
          release();
          await b;
          const all = Array.from({ length: 4 }, (_, p) => Array.from({ length: 10 }, (_, o) => `${p}:${o}`)).flat();
          await waitFor(() => all.every((k) => handledBy.a.has(k) || handledBy.b.has(k)), 'every record handled', 30_000);
          await waitFor(async () => (await log.lag(group, name)).every((l) => l.committed === l.end), 'every partition committed to its end', 30_000);
          await sleep(1_000);
          await Promise.all([a.stop(), b.then((c) => c.stop())]);
          expect(overlaps, 'records member B was given while member A still handled them').to.deep.equal([]);
          for (const member of ['a', 'b'] as const) {
            for (const [partition, offsets] of given[member]) {
              // At-least-once: a member may be given a record again after a rebalance, but its first sightings are in order.
              const firsts = [...new Set(offsets)];
              expect(firsts, `member ${member}, partition ${partition}`).to.deep.equal([...firsts].sort((x, y) => x - y));
            }
          }
          expect(given.b.size, 'member B took partitions over').to.be.above(0);
        } finally {
          release();
          watching = false;
          await watch;
          await a?.stop();
          await b?.then((c) => c.stop()).catch(() => undefined);
          await other.close();
        }
        for (const [partition, series] of committed) {
          expect(series, `committed offsets of partition ${partition}`).to.deep.equal([...series].sort((x, y) => x - y));
        }
        for (const { committed: offset, end } of await log.lag(group, name)) expect(offset).to.equal(end);
      });
    });
  },
);

describe('eventlog-kafka without a broker', () => {
  it('rejects bad options before connecting, with CONFIG.INVALID', async () => {
    await expectCode(openKafkaEventLog({ brokers: [] }), 'CONFIG.INVALID');
    await expectCode(openKafkaEventLog({ brokers: ['127.0.0.1:9092'], heartbeatIntervalMs: 20_000 }), 'CONFIG.INVALID');
  });

  it('fails to open with a retriable EVENTLOG.UNAVAILABLE when no broker answers', async () => {
    const error = await expectCode(openKafkaEventLog({ brokers: ['127.0.0.1:1'], retries: 1, connectionTimeoutMs: 200, logger: createLogger({}, 'silent') }), 'EVENTLOG.UNAVAILABLE');
    expect((error as unknown as { retriable: boolean }).retriable).to.equal(true);
  });
});
