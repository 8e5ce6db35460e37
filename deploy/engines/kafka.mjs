// Apache Kafka in KRaft mode: one JVM that is both broker and controller, run from the jars Maven Central serves
// (there is no Kafka tarball we may download). The storage is formatted once; restarts keep every topic and offset.
//
// Version: 4.4.0, the newest release whose dependencies all resolve from Maven Central. Kafka 4 dropped old protocol versions (KIP-896), but
// the versions kafkajs 2.2.4 negotiates (Produce v7, Fetch v11, ListOffsets v3, Metadata v6, OffsetCommit v5,
// OffsetFetch v4, JoinGroup v5, ...) are all above what was removed: KIP-896 chose its cut-offs with KafkaJS in
// its client survey. The event log contract suite passes against 4.4.0 and 3.9.1 alike. MEMORY_KAFKA_VERSION
// picks another release (3.9.x still works: the logging binding follows the major version); 4.x upgrades a 3.9
// data folder in place, while going back to 3.x after 4.x has written one needs `down --wipe kafka` first.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { fetchClasspath } from './support/maven.mjs';
import { enginePort } from './support/layout.mjs';
import { portAccepts } from './support/waiting.mjs';

const VERSION = process.env.MEMORY_KAFKA_VERSION || '4.4.0';
const MAJOR = Number(VERSION.split('.')[0]);
const HOST = '127.0.0.1';
const BROKER_PORT = enginePort(9092);
const CONTROLLER_PORT = enginePort(9093);
const NODE_ID = 1;

// The broker jars bring slf4j's API (1.7) but no binding; without one the broker logs nothing at all. 4.x logs
// through log4j 2 (its own dependency; the binding is pinned to the same release), 3.x through log4j 1 (reload4j,
// as that distribution ships it).
const LOGGING = MAJOR >= 4
  ? {
      artifacts: ['org.apache.logging.log4j:log4j-core:2.25.5', 'org.apache.logging.log4j:log4j-slf4j-impl:2.25.5'],
      file: 'log4j2.properties',
      property: 'log4j2.configurationFile',
      text: [
        'status = warn',
        'appender.out.type = Console',
        'appender.out.name = out',
        'appender.out.layout.type = PatternLayout',
        'appender.out.layout.pattern = [%d] %p %m (%c)%n',
        'rootLogger.level = info',
        'rootLogger.appenderRef.out.ref = out',
        // Per-request and state-change chatter would bury the lines that matter.
        'logger.request.name = kafka.request.logger',
        'logger.request.level = warn',
        'logger.state.name = state.change.logger',
        'logger.state.level = warn',
        'logger.controller.name = org.apache.kafka.controller',
        'logger.controller.level = warn',
        'logger.segment.name = org.apache.kafka.storage.internals.log.LogSegment',
        'logger.segment.level = warn',
        '',
      ].join('\n'),
    }
  : {
      artifacts: ['org.slf4j:slf4j-reload4j:1.7.36', 'ch.qos.reload4j:reload4j:1.2.25'],
      file: 'log4j.properties',
      property: 'log4j.configuration',
      text: [
        'log4j.rootLogger=INFO, out',
        'log4j.appender.out=org.apache.log4j.ConsoleAppender',
        'log4j.appender.out.layout=org.apache.log4j.PatternLayout',
        'log4j.appender.out.layout.ConversionPattern=[%d] %p %m (%c)%n',
        // Per-request and state-change chatter would bury the lines that matter.
        'log4j.logger.kafka.request.logger=WARN',
        'log4j.logger.state.change.logger=WARN',
        'log4j.logger.org.apache.kafka.controller=WARN',
        'log4j.logger.org.apache.kafka.storage.internals.log.LogSegment=WARN',
        '',
      ].join('\n'),
    };

// The storage tool is Scala (kafka.tools) up to 4.4 at least; a later move to the Java tools module is tried too.
const STORAGE_TOOLS = ['kafka.tools.StorageTool', 'org.apache.kafka.tools.StorageTool'];

function classpath(ctx) {
  return fetchClasspath({
    cacheDir: ctx.dirs.cache,
    artifacts: [`org.apache.kafka:kafka_2.13:${VERSION}`, ...LOGGING.artifacts],
    log: ctx.log,
  }).join(':');
}

function paths(ctx) {
  const config = join(ctx.dirs.data, 'config');
  return {
    config,
    storage: join(ctx.dirs.data, 'storage'),
    server: join(config, 'server.properties'),
    logging: join(config, LOGGING.file),
  };
}

function serverProperties(storage) {
  const settings = {
    'process.roles': 'broker,controller',
    'node.id': NODE_ID,
    // A static quorum of one: formatting needs no --standalone (a dynamic KIP-853 quorum would), on 3.9 and 4.x alike.
    'controller.quorum.voters': `${NODE_ID}@${HOST}:${CONTROLLER_PORT}`,
    listeners: `PLAINTEXT://${HOST}:${BROKER_PORT},CONTROLLER://${HOST}:${CONTROLLER_PORT}`,
    'advertised.listeners': `PLAINTEXT://${HOST}:${BROKER_PORT}`,
    'controller.listener.names': 'CONTROLLER',
    'inter.broker.listener.name': 'PLAINTEXT',
    'listener.security.protocol.map': 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
    'log.dirs': storage,
    // One node: every internal topic must live with a single replica.
    'offsets.topic.replication.factor': 1,
    'offsets.topic.num.partitions': 10,
    'transaction.state.log.replication.factor': 1,
    'transaction.state.log.min.isr': 1,
    'transaction.state.log.num.partitions': 10,
    'default.replication.factor': 1,
    'min.insync.replicas': 1,
    'num.partitions': 1,
    // Topics are created on purpose (ensureTopics), with their partitions and retention; a typo must fail.
    'auto.create.topics.enable': false,
    // A lone consumer should not wait 3 s for company before it gets its partitions.
    'group.initial.rebalance.delay.ms': 0,
    // Modest threads and buffers: the machine is shared with Elasticsearch and the tests.
    'num.network.threads': 2,
    'num.io.threads': 4,
    'log.cleaner.dedupe.buffer.size': 32 * 1024 * 1024,
  };
  return `# Written by deploy/engines/kafka.mjs at every start; edit that file instead.\n${Object.entries(settings)
    .map(([key, value]) => `${key}=${value}`)
    .join('\n')}\n`;
}

/** A Kafka cluster id: 16 random bytes, base64url; a leading '-' would read as an option to the storage tool. */
function newClusterId() {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

function formatStorage(ctx, cp, files) {
  if (existsSync(join(files.storage, 'meta.properties'))) return;
  const clusterId = newClusterId();
  ctx.log(`formatting ${files.storage} (cluster id ${clusterId}; first start only)`);
  const failures = [];
  for (const mainClass of STORAGE_TOOLS) {
    const run = spawnSync(
      'java',
      ['-Xmx256m', `-D${LOGGING.property}=file:${files.logging}`, '-cp', cp, mainClass, 'format', '-t', clusterId, '-c', files.server, '--ignore-formatted'],
      { encoding: 'utf8' },
    );
    const output = `${run.stdout ?? ''}${run.stderr ?? ''}`.trim();
    if (run.status === 0) return;
    failures.push(`${mainClass} (exit ${run.status}): ${output.split('\n').slice(-8).join('\n')}`);
    if (!/Could not find or load main class|ClassNotFoundException/.test(output)) break;
  }
  throw new Error(`formatting the Kafka storage failed:\n${failures.join('\n')}`);
}

/**
 * One ApiVersions request (v0, which every broker answers): true once the broker processes requests, which it
 * only does after it has joined the quorum; an open port alone can still be the kernel's backlog.
 */
function brokerAnswers(host, port, timeoutMs = 2000) {
  return new Promise((resolve) => {
    const clientId = Buffer.from('engines-probe');
    const body = Buffer.alloc(10 + clientId.length);
    body.writeInt16BE(18, 0); // api key: ApiVersions
    body.writeInt16BE(0, 2); // api version
    body.writeInt32BE(7, 4); // correlation id
    body.writeInt16BE(clientId.length, 8);
    clientId.copy(body, 10);
    const size = Buffer.alloc(4);
    size.writeInt32BE(body.length);

    let received = Buffer.alloc(0);
    const socket = connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.once('close', () => done(false));
    socket.once('connect', () => socket.write(Buffer.concat([size, body])));
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      // size, correlation id, error code
      if (received.length >= 10) done(received.readInt32BE(4) === 7 && received.readInt16BE(8) === 0);
    });
  });
}

export default {
  name: 'kafka',
  summary: `Apache Kafka ${VERSION}, KRaft single node (broker + controller), from Maven Central`,
  endpoints: { KAFKA_BROKERS: `${HOST}:${BROKER_PORT}` },
  readyTimeoutMs: 120_000,
  stopGraceMs: 30_000,

  async install(ctx) {
    classpath(ctx);
  },

  async launch(ctx) {
    const cp = classpath(ctx);
    const files = paths(ctx);
    mkdirSync(files.config, { recursive: true });
    mkdirSync(files.storage, { recursive: true });
    writeFileSync(files.server, serverProperties(files.storage));
    writeFileSync(files.logging, LOGGING.text);
    formatStorage(ctx, cp, files);
    return {
      command: 'java',
      args: [
        '-Xms256m',
        '-Xmx768m',
        '-XX:+UseG1GC',
        '-XX:MaxGCPauseMillis=20',
        '-XX:+ExplicitGCInvokesConcurrent',
        '-XX:+ExitOnOutOfMemoryError',
        '-Djava.awt.headless=true',
        `-D${LOGGING.property}=file:${files.logging}`,
        `-Dkafka.logs.dir=${ctx.dirs.logs}`,
        '-cp',
        cp,
        'kafka.Kafka',
        files.server,
      ],
      env: {},
      cwd: ctx.dirs.data,
    };
  },

  async ready() {
    return (await portAccepts(HOST, BROKER_PORT)) && brokerAnswers(HOST, BROKER_PORT);
  },
};
