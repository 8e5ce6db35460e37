import { expect } from 'chai';
import avro from 'avsc';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EVENTS, latestSchema, schemaVersions, type EventName } from './catalog.js';
import { generateTypeScript } from './type-generator.js';
import { AvroCodec, type SchemaRegistryClient } from './codec.js';
import { blobKeyOf, createJobIdClock, memoryIdOf } from './ids.js';

/** A registry that keeps schemas in a Map: enough to exercise the codec's framing (adapters have their own suites). */
function registryInMemory(): SchemaRegistryClient {
  const ids = new Map<string, number>();
  const byId = new Map<number, string>();
  return {
    async register(_subject, schema) {
      let id = ids.get(schema);
      if (id === undefined) { id = ids.size + 1; ids.set(schema, id); byId.set(id, schema); }
      return id;
    },
    async schemaById(id) {
      const s = byId.get(id);
      if (!s) throw new Error(`unknown id ${id}`);
      return s;
    },
  };
}

describe('schemas', () => {
  for (const [name, event] of Object.entries(EVENTS)) {
    describe(event.schema, () => {
      const versions = schemaVersions(event.schema);
      it('parses every version and round-trips its fixture', () => {
        expect(versions.length).to.be.greaterThan(0);
        for (const v of versions) {
          const type = avro.Type.forSchema(v.schema as avro.Schema);
          const fixture = normaliseBytes(v.fixture);
          expect(type.isValid(fixture), `v${v.version} fixture must be valid`).to.equal(true);
          expect(plain(type.fromBuffer(type.toBuffer(fixture)))).to.deep.equal(plain(fixture));
        }
      });
      it('stays BACKWARD compatible: each version reads the data of the one before', () => {
        for (let i = 1; i < versions.length; i++) {
          const older = avro.Type.forSchema(versions[i - 1]!.schema as avro.Schema);
          const newer = avro.Type.forSchema(versions[i]!.schema as avro.Schema);
          const resolver = newer.createResolver(older); // throws when incompatible
          newer.fromBuffer(older.toBuffer(normaliseBytes(versions[i - 1]!.fixture)), resolver);
        }
      });
      it(`is what ${name} producers write`, () => {
        expect(latestSchema(name as EventName)).to.deep.equal(versions[versions.length - 1]!.schema);
      });
    });
  }

  it('generated TypeScript types are in step with the schemas (run npm run generate:types)', () => {
    const generated = readFileSync(fileURLToPath(new URL('./generated/events.ts', import.meta.url)), 'utf8');
    const schemas = (Object.keys(EVENTS) as EventName[]).map((n) => latestSchema(n));
    expect(generated).to.equal(generateTypeScript(schemas));
  });
});

describe('AvroCodec', () => {
  it('frames events in the Confluent wire format and decodes them back', async () => {
    const codec = new AvroCodec(registryInMemory());
    const event = normaliseBytes(schemaVersions('job-status')[0]!.fixture) as never;
    const framed = await codec.encode('jobStatus', event);
    expect(framed[0]).to.equal(0);
    expect(framed.readUInt32BE(1)).to.be.greaterThan(0);
    expect(plain(await codec.decode('jobStatus', framed))).to.deep.equal(plain(event));
  });

  it('rejects a value that does not match the schema with a stable code', async () => {
    const codec = new AvroCodec(registryInMemory());
    try {
      await codec.encode('jobStatus', { jobId: 1 } as never);
      expect.fail('should throw');
    } catch (error) {
      expect((error as { code: string }).code).to.equal('CONTRACT.INVALID_EVENT');
    }
  });

  it('rejects bytes without the magic byte', async () => {
    const codec = new AvroCodec(registryInMemory());
    try {
      await codec.decode('jobStatus', Buffer.from([1, 2, 3, 4, 5, 6]));
      expect.fail('should throw');
    } catch (error) {
      expect((error as { code: string }).code).to.equal('CONTRACT.BAD_FRAME');
    }
  });
});

describe('ids', () => {
  it('makes job ids in the interface format, unique within one millisecond', () => {
    const clock = createJobIdClock(() => 1_700_000_000_000);
    const a = clock('text', 'alice');
    const b = clock('text', 'alice');
    const c = clock('image', 'bob');
    expect(a.jobId).to.equal('job_1700000000000_alice');
    expect(b.jobId).to.equal('job_1700000000001_alice');
    expect(c.jobId).to.equal('img_job_1700000000002_bob');
    expect(clock('document', 'carol').jobId).to.match(/^doc_job_\d{13}_carol$/);
  });
  it('derives memory ids from job and part', () => {
    expect(memoryIdOf('job_1_alice', 2)).to.equal('mem_job_1_alice_2');
  });
  it('derives blob keys tenant first, with every part encoded so none reads as a path step', () => {
    expect(blobKeyOf('acme', 'alice', 'img_job_1_alice', 'original')).to.equal('acme/alice/img_job_1_alice/original');
    expect(blobKeyOf('acme', 'a/b', 'j', 'f')).to.equal('acme/a%2Fb/j/f');
    expect(blobKeyOf('acme', '..', 'j', '.')).to.equal('acme/%2E%2E/j/%2E');
  });
});

/** Avro decodes into record classes; compare data only. */
function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

/** Fixtures are JSON, so `bytes` fields arrive as strings; Avro wants Buffers. */
function normaliseBytes(value: unknown): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = k === 'value' && typeof v === 'string' ? Buffer.from(v, 'latin1') : normaliseBytes(v);
    return out;
  }
  return value;
}
