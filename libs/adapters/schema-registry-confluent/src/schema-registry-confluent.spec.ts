import { expect } from 'chai';
import { describeSchemaRegistryContract, describeWithEngine, expectCode, localEngines, uniqueName } from '@memory/testing';
import { confluentSchemaRegistryOptionsFromEnv, createConfluentSchemaRegistry } from './index.js';

const options = confluentSchemaRegistryOptionsFromEnv();

/** A look behind the adapter, with no client library in between. */
async function raw(path: string, init: RequestInit = {}): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${options.url.replace(/\/+$/, '')}${path}`, {
    ...init,
    headers: { 'content-type': 'application/vnd.schemaregistry.v1+json' },
    signal: AbortSignal.timeout(5_000),
  });
  return { status: response.status, body: await response.json().catch(() => undefined) };
}

const engine = localEngines().registry;

describeWithEngine('schema-registry-confluent against a real registry', engine, () => {
  // Subjects are unique per test (uniqueName), so nothing needs removing from the shared registry afterwards.
  describeSchemaRegistryContract('confluent-rest (apicurio)', async () => {
    const open = () => createConfluentSchemaRegistry(options);
    return { registry: await open(), reopen: open, cleanup: async () => undefined };
  });

  describe('schema-registry-confluent specifics', () => {
    const record = (fields: object[]) => JSON.stringify({ type: 'record', name: 'Specific', namespace: 'memory.test', fields });
    const base = record([{ name: 'id', type: 'string' }]);

    it('keeps record fields in the order given: it is the Avro binary layout', async () => {
      // Apicurio with use-canonical-hash stores fields sorted by name; the engine must keep that off.
      const schema = record([{ name: 'zeta', type: 'string' }, { name: 'alpha', type: 'long' }, { name: 'mid', type: ['null', 'int'], default: null }]);
      const registry = await createConfluentSchemaRegistry(options);
      const reader = await createConfluentSchemaRegistry(options);
      try {
        const id = await registry.register(uniqueName('subject'), schema);
        expect(JSON.parse(await reader.schemaById(id)).fields.map((f: { name: string }) => f.name)).to.deep.equal(['zeta', 'alpha', 'mid']);
      } finally {
        await Promise.all([registry.close(), reader.close()]);
      }
    });

    it('sets the configured compatibility level on the subjects it registers into', async () => {
      const subject = uniqueName('subject');
      const registry = await createConfluentSchemaRegistry({ ...options, compatibility: 'FORWARD' });
      try {
        await registry.register(subject, base);
        const config = await raw(`/config/${encodeURIComponent(subject)}`);
        expect(config.body).to.deep.include({ compatibilityLevel: 'FORWARD' });
        // FORWARD: a new required field is fine (old readers skip it); dropping the only field is not.
        await registry.register(subject, record([{ name: 'id', type: 'string' }, { name: 'n', type: 'int' }]));
        await expectCode(registry.register(subject, record([{ name: 'n', type: 'int' }])), 'REGISTRY.INCOMPATIBLE');
      } finally {
        await registry.close();
      }
    });

    it('leaves the subject configuration alone with compatibility: false', async () => {
      const subject = uniqueName('subject');
      // Whoever manages the registry chose FORWARD for this subject; an adapter told to leave the configuration
      // alone must not put its own BACKWARD over it.
      expect((await raw(`/config/${encodeURIComponent(subject)}`, { method: 'PUT', body: JSON.stringify({ compatibility: 'FORWARD' }) })).status).to.equal(200);
      const registry = await createConfluentSchemaRegistry({ ...options, compatibility: false });
      try {
        await registry.register(subject, base);
        // A new required field: FORWARD compatible, not BACKWARD compatible.
        await registry.register(subject, record([{ name: 'id', type: 'string' }, { name: 'n', type: 'int' }]));
        expect(await registry.versions(subject)).to.deep.equal([1, 2]);
        expect((await raw(`/config/${encodeURIComponent(subject)}`)).body).to.deep.include({ compatibilityLevel: 'FORWARD' });
      } finally {
        await registry.close();
      }
    });

    it('hands out one id per schema when separate clients race (as processes starting together do)', async () => {
      const clients = await Promise.all(Array.from({ length: 3 }, () => createConfluentSchemaRegistry(options)));
      try {
        const schemas = Array.from({ length: 3 }, (_, i) => record([{ name: `race${i}`, type: 'string' }, { name: uniqueName('f').replace(/-/g, '_'), type: 'long' }]));
        const attempts = clients.flatMap((client) => schemas.map(async (schema, s) => ({ s, id: await client.register(uniqueName('subject'), schema) })));
        const results = await Promise.all(attempts);
        for (const { s, id } of results) expect(id).to.equal(results.find((r) => r.s === s)!.id);
        expect(new Set(results.map((r) => r.id)).size).to.equal(3);
      } finally {
        await Promise.all(clients.map((client) => client.close()));
      }
    });

    it('answers from memory once an id or version is known, and asks again for latest', async () => {
      const subject = uniqueName('subject');
      const registry = await createConfluentSchemaRegistry(options);
      try {
        const id = await registry.register(subject, base);
        const first = await registry.schemaByVersion(subject, 1);
        expect(first).to.include({ id, version: 1 });
        expect(JSON.parse(await registry.schemaById(id))).to.deep.equal(JSON.parse(base));
        // A second client registering v2 behind this one's back: 'latest' must see it.
        const other = await createConfluentSchemaRegistry(options);
        const v2 = await other.register(subject, record([{ name: 'id', type: 'string' }, { name: 'note', type: ['null', 'string'], default: null }]));
        await other.close();
        expect(await registry.schemaByVersion(subject, 'latest')).to.include({ id: v2, version: 2 });
        expect(await registry.versions(subject)).to.deep.equal([1, 2]);
      } finally {
        await registry.close();
      }
    });
  });
});
