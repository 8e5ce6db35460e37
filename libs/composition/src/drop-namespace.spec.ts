import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
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
});
