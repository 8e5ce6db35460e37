import { expect } from 'chai';
import type { SchemaRegistry } from '@memory/ports';
import { expectCode, uniqueName } from './wait-for.js';

/** What an adapter's spec hands the schema registry contract for each test. */
export interface SchemaRegistryHarness {
  registry: SchemaRegistry;
  /** Opens the same registry again; the suite has closed the previous instance first. */
  reopen(): Promise<SchemaRegistry>;
  /** Removes what the test left behind; the suite has closed the current instance first. */
  cleanup(): Promise<void>;
}

export type SchemaRegistryFactory = () => Promise<SchemaRegistryHarness>;

/** A record schema; `extra` adds fields after the first. Names are fixed so versions of one subject resolve. */
function recordSchema(extra: object[] = [], layout?: 'reordered'): string {
  const schema = { type: 'record', name: 'Contract', namespace: 'memory.test', fields: [{ name: 'id', type: 'string' }, ...extra] };
  if (layout === 'reordered') {
    // Same schema, keys in another order and other whitespace: must count as the same schema.
    return JSON.stringify({ fields: schema.fields.map((f) => Object.fromEntries(Object.entries(f).reverse())), namespace: schema.namespace, name: schema.name, type: 'record' }, null, 2);
  }
  return JSON.stringify(schema);
}

const withOptional = recordSchema([{ name: 'note', type: ['null', 'string'], default: null }]);
const withRequired = recordSchema([{ name: 'count', type: 'int' }]);

/**
 * The behaviour every SchemaRegistry adapter must show (embedded, Confluent REST). Subjects are unique per test
 * so the suite can run against a shared registry; the registry is expected to use BACKWARD compatibility.
 */
export function describeSchemaRegistryContract(adapterName: string, factory: SchemaRegistryFactory): void {
  describe(`SchemaRegistry contract: ${adapterName}`, function () {
    this.timeout(20_000);
    let harness: SchemaRegistryHarness | undefined;
    let registry: SchemaRegistry;

    beforeEach(async () => {
      harness = await factory();
      registry = harness.registry;
    });

    afterEach(async () => {
      await registry?.close();
      await harness?.cleanup();
      harness = undefined;
    });

    async function reopen(): Promise<SchemaRegistry> {
      await registry.close();
      registry = await harness!.reopen();
      return registry;
    }

    it('register is idempotent: the same schema under a subject keeps its id and adds no version', async () => {
      const subject = uniqueName('subject');
      const id = await registry.register(subject, recordSchema());
      expect(id).to.be.a('number');
      expect(await registry.register(subject, recordSchema())).to.equal(id);
      expect(await registry.register(subject, recordSchema([], 'reordered')), 'same schema, other layout').to.equal(id);
      expect(await registry.versions(subject)).to.deep.equal([1]);
      expect(JSON.parse(await registry.schemaById(id))).to.deep.equal(JSON.parse(recordSchema()));
    });

    it('gives the same schema the same global id under another subject, with its own version there', async () => {
      const a = uniqueName('subject-a');
      const b = uniqueName('subject-b');
      const idA = await registry.register(a, recordSchema());
      await registry.register(b, withOptional);
      const idB = await registry.register(b, recordSchema());
      expect(idB).to.equal(idA);
      expect(await registry.versions(b)).to.deep.equal([1, 2]);
      expect(await registry.schemaByVersion(b, 2)).to.include({ id: idA, version: 2 });
    });

    it('adds versions for compatible changes, lists them oldest first, and finds latest and by number', async () => {
      const subject = uniqueName('subject');
      const v1 = await registry.register(subject, recordSchema());
      const v2 = await registry.register(subject, withOptional);
      expect(v2).to.not.equal(v1);
      expect(await registry.versions(subject)).to.deep.equal([1, 2]);
      const latest = await registry.schemaByVersion(subject, 'latest');
      expect(latest).to.include({ id: v2, version: 2 });
      expect(JSON.parse(latest.schema)).to.deep.equal(JSON.parse(withOptional));
      expect(await registry.schemaByVersion(subject, 1)).to.include({ id: v1, version: 1 });
      // Registering an older schema again returns its id and creates no new version.
      expect(await registry.register(subject, recordSchema())).to.equal(v1);
      expect(await registry.versions(subject)).to.deep.equal([1, 2]);
      expect(await registry.subjects()).to.include(subject);
    });

    it('refuses a change that is not backward compatible with REGISTRY.INCOMPATIBLE', async () => {
      const subject = uniqueName('subject');
      await registry.register(subject, recordSchema());
      await expectCode(registry.register(subject, withRequired), 'REGISTRY.INCOMPATIBLE');
      expect(await registry.versions(subject)).to.deep.equal([1]);
    });

    it('fails with REGISTRY.NOT_FOUND for unknown ids, subjects and versions', async () => {
      const subject = uniqueName('subject');
      await expectCode(registry.schemaById(987_654_321), 'REGISTRY.NOT_FOUND');
      await expectCode(registry.versions(subject), 'REGISTRY.NOT_FOUND');
      await expectCode(registry.schemaByVersion(subject, 'latest'), 'REGISTRY.NOT_FOUND');
      await registry.register(subject, recordSchema());
      await expectCode(registry.schemaByVersion(subject, 2), 'REGISTRY.NOT_FOUND');
    });

    it('refuses text that is not an Avro schema with REGISTRY.INVALID_SCHEMA', async () => {
      await expectCode(registry.register(uniqueName('subject'), '{not json'), 'REGISTRY.INVALID_SCHEMA');
      await expectCode(registry.register(uniqueName('subject'), JSON.stringify({ type: 'record', name: 'X', fields: [{ name: 'a', type: 'nosuchtype' }] })), 'REGISTRY.INVALID_SCHEMA');
    });

    it('keeps ids, versions and subjects across a reopen', async () => {
      const subject = uniqueName('subject');
      const v1 = await registry.register(subject, recordSchema());
      const v2 = await registry.register(subject, withOptional);
      const reopened = await reopen();
      expect(await reopened.register(subject, recordSchema())).to.equal(v1);
      expect(await reopened.register(subject, withOptional)).to.equal(v2);
      expect(await reopened.versions(subject)).to.deep.equal([1, 2]);
      expect(JSON.parse(await reopened.schemaById(v2))).to.deep.equal(JSON.parse(withOptional));
      expect(await reopened.subjects()).to.include(subject);
      const other = await reopened.register(uniqueName('subject'), recordSchema([{ name: 'other', type: 'long' }]));
      expect([v1, v2]).to.not.include(other);
    });

    it('hands out one id per schema when registrations race', async () => {
      const distinct = Array.from({ length: 3 }, (_, i) => recordSchema([{ name: `field${i}`, type: 'string' }]));
      const subjects = Array.from({ length: 9 }, () => uniqueName('subject'));
      const results = await Promise.all(subjects.map(async (subject, s) => ({ subject, s, id: await registry.register(subject, distinct[s % 3]!) })));
      for (const { subject, s, id } of results) {
        expect(id, subject).to.equal(results[s % 3]!.id);
        expect(await registry.versions(subject)).to.deep.equal([1]);
      }
      expect(new Set(results.map((r) => r.id)).size).to.equal(3);
    });
  });
}
