import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Kafka, logLevel } from 'kafkajs';
import { EVENTS } from '@memory/contracts';
import { createLogger } from '@memory/platform';
import { describeWithEngine, localEngines } from '@memory/testing';
import { readServiceConfig } from './config.js';
import { dropNamespace } from './drop-namespace.js';
import { openInfrastructure } from './infrastructure.js';

const engines = localEngines();
const configOf = (namespace: string) => readServiceConfig({ ...process.env, MEMORY_NAMESPACE: namespace }, 'distributed');

describe('dropNamespace', () => {
  it('refuses the default namespace, which is a deployment\'s data', async () => {
    const error = await dropNamespace(configOf('')).then(() => null, (e: unknown) => e);
    expect(error).to.have.property('code', 'CONFIG.INVALID');
  });
});

describeWithEngine('dropNamespace on the engines', [engines.kafka, engines.elasticsearch], function () {
  this.timeout(120_000);
  const kafka = new Kafka({ brokers: engines.kafka.endpoint.split(','), clientId: 'drop-namespace-spec', logLevel: logLevel.NOTHING }).admin();
  const namespaces = [`dropspec-${randomBytes(4).toString('hex')}`, `dropspec-${randomBytes(4).toString('hex')}`];

  /** What each namespace holds on the engines: its topics, consumer groups and indices. */
  const held = async (namespace: string) => ({
    topics: (await kafka.listTopics()).filter((topic) => topic.startsWith(`${namespace}.`)).length,
    groups: (await kafka.listGroups()).groups.filter((group) => group.groupId.startsWith(`${namespace}.`)).length,
    indices: ((await (await fetch(new URL(`/_cat/indices/${namespace}-*?format=json&expand_wildcards=all`, engines.elasticsearch.endpoint))).json()) as unknown[]).length,
  });

  before(async () => {
    await kafka.connect();
    for (const namespace of namespaces) {
      const config = configOf(namespace);
      const infra = openInfrastructure(config, createLogger({ spec: 'drop-namespace' }, 'error'));
      try {
        const { log } = await infra.eventBus();
        await log.ensureTopics([EVENTS.jobStatus.topic].map((name) => ({ name, partitions: 1 })));
        // A group with a committed offset, as a stage that ran leaves one.
        await log.resetOffsets('spec-group', EVENTS.jobStatus.topic, { kind: 'earliest' });
        // The text stores' indices and the visual vectors' own.
        await infra.jobs();
        await infra.visualVectors();
      } finally {
        await infra.close();
      }
    }
  });

  after(async () => {
    for (const namespace of namespaces) await dropNamespace(configOf(namespace)).catch(() => undefined);
    await kafka.disconnect();
  });

  it('removes the namespace\'s topics, consumer groups and indices, and nothing of another namespace', async () => {
    const [dropped, kept] = namespaces as [string, string];
    const before = await held(dropped);
    expect(before.topics).to.be.greaterThan(0);
    expect(before.groups).to.be.greaterThan(0);
    expect(before.indices).to.be.greaterThan(0);
    const other = await held(kept);

    await dropNamespace(configOf(dropped));

    expect(await held(dropped)).to.deep.equal({ topics: 0, groups: 0, indices: 0 });
    expect(await held(kept)).to.deep.equal(other);
  });

  it('removes a group whose last member was killed, once the member\'s session has timed out', async () => {
    const [, namespace] = namespaces as [string, string];
    // A consumer of the namespace in a process of its own, killed with SIGKILL once it has joined: no LeaveGroup.
    const member = spawn(process.execPath, ['--input-type=module', '-e', `
      import { Kafka, logLevel } from 'kafkajs';
      const consumer = new Kafka({ brokers: ${JSON.stringify(engines.kafka.endpoint.split(','))}, logLevel: logLevel.NOTHING }).consumer({ groupId: '${namespace}.killed', sessionTimeout: 6000, heartbeatInterval: 1000 });
      consumer.on(consumer.events.GROUP_JOIN, () => process.stdout.write('joined\\n'));
      await consumer.connect();
      await consumer.subscribe({ topics: ['${namespace}.${EVENTS.jobStatus.topic}'], fromBeginning: true });
      await consumer.run({ eachMessage: async () => undefined });
    `], { cwd: fileURLToPath(new URL('../../..', import.meta.url)), stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      member.stdout.on('data', (chunk: Buffer) => { if (chunk.toString().includes('joined')) resolve(); });
      member.once('exit', (code) => reject(new Error(`the member exited (${code}) before joining`)));
    });
    member.kill('SIGKILL');
    expect((await kafka.listGroups()).groups.map((group) => group.groupId)).to.include(`${namespace}.killed`);

    await dropNamespace(configOf(namespace));

    expect(await held(namespace)).to.deep.equal({ topics: 0, groups: 0, indices: 0 });
  });
});
