import { expect } from 'chai';
import avro from 'avsc';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EVENTS, latestSchema, schemaVersions, type EventName } from './catalog.js';
import { generateTypeScript } from './type-generator.js';
import { AvroCodec, type SchemaRegistryClient } from './codec.js';
import { acceptedAtOf, blobKeyOf, blobPrefixOf, createJobIdClock, isJobIdOf, jobIdOfMemory, memoryIdOf } from './ids.js';
import { SEALED_MAGIC_BYTE } from './codec.js';
import { contentKeyId, memoryOfContentKey, newDataKey, sealedSubject } from './sealing.js';

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
    const event = normaliseBytes(schemaVersions('job-status').at(-1)!.fixture) as never;
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
      await codec.decode('jobStatus', Buffer.from([2, 2, 3, 4, 5, 6]));
      expect.fail('should throw');
    } catch (error) {
      expect((error as { code: string }).code).to.equal('CONTRACT.BAD_FRAME');
    }
  });
});

describe('AvroCodec with content keys (sealing)', () => {
  /** Keys in a Map, with forgetting: enough for the codec's side of sealing (key stores have their own suites). */
  function keysInMemory() {
    const keys = new Map<string, Buffer>();
    const forgotten = new Set<string>();
    const id = (t: string, u: string, k: string) => `${t}/${u}/${k}`;
    return {
      forget: (t: string, u: string, k: string) => { keys.delete(id(t, u, k)); forgotten.add(id(t, u, k)); },
      async keyFor(t: string, u: string, k: string) {
        if (forgotten.has(id(t, u, k))) throw Object.assign(new Error('forgotten'), { code: 'KEY.FORGOTTEN' });
        if (!keys.has(id(t, u, k))) keys.set(id(t, u, k), newDataKey());
        return keys.get(id(t, u, k))!;
      },
      async existingKey(t: string, u: string, k: string) {
        return keys.get(id(t, u, k)) ?? null;
      },
    };
  }
  const text = { ...(schemaVersions('ingest-requested').at(-1)!.fixture as object), content: 'Caroline lent me the telescope' } as never;

  it('seals events with content: no readable text in the bytes, the same event back with the key', async () => {
    const keys = keysInMemory();
    const registry = registryInMemory();
    const framed = await new AvroCodec(registry, keys).encode('ingestRequested', text);
    expect(framed[0]).to.equal(SEALED_MAGIC_BYTE);
    expect(framed.includes(Buffer.from('telescope'))).to.equal(false);
    expect(framed.includes(Buffer.from('acme'))).to.equal(true);
    expect(plain(await new AvroCodec(registry, keys).decode('ingestRequested', framed))).to.deep.equal(plain(text));
  });

  it('leaves events of ids only in the plain wire format', async () => {
    const framed = await new AvroCodec(registryInMemory(), keysInMemory()).encode('forgetRequested', schemaVersions('forget-requested').at(-1)!.fixture as never);
    expect(framed[0]).to.equal(0);
  });

  it('refuses to read a sealed event whose key was destroyed (KEY.FORGOTTEN), or to write one', async () => {
    const keys = keysInMemory();
    const codec = new AvroCodec(registryInMemory(), keys);
    const framed = await codec.encode('ingestRequested', text);
    keys.forget('acme', 'alice', 'job_1700000000000_alice');
    for (const attempt of [codec.decode('ingestRequested', framed), codec.encode('ingestRequested', text)]) {
      try {
        await attempt;
        expect.fail('should throw');
      } catch (error) {
        expect((error as { code: string }).code).to.equal('KEY.FORGOTTEN');
      }
    }
  });

  it('reads back the memory a content key seals, and none for a key that seals no memory', () => {
    for (const memoryId of ['mem_job_1700000000000_alice_0', 'mem_img_job_1700000000000_alice_0', 'mem_doc_job_1700000000000_alice_3']) {
      expect(memoryOfContentKey(contentKeyId({ jobId: 'upd_job_1700000000500_alice', memoryId })), memoryId).to.equal(memoryId);
    }
    for (const keyId of ['doc_job_1700000000000_alice', 'upd_job_1700000000500_alice', 'del_job_1700000000600_alice', 'centroid']) expect(memoryOfContentKey(keyId), keyId).to.equal(null);
  });

  it("seals an update's events with its memory's key, so forgetting the memory forgets every version", async () => {
    const keys = keysInMemory();
    const codec = new AvroCodec(registryInMemory(), keys);
    const update = { ...(text as object), jobId: 'upd_job_1700000000500_alice', memoryId: 'mem_job_1700000000000_alice_0', cause: 'update' } as never;
    const framed = await codec.encode('ingestRequested', update);
    expect(sealedSubject(framed.subarray(5)).keyId).to.equal('job_1700000000000_alice');
    expect(contentKeyId({ jobId: 'upd_job_1700000000500_alice', memoryId: 'mem_job_1700000000000_alice_0' })).to.equal('job_1700000000000_alice');
    expect(contentKeyId({ jobId: 'upd_job_1700000000500_alice', memoryId: 'mem_doc_job_1700000000000_alice_3' })).to.equal('mem_doc_job_1700000000000_alice_3');
    keys.forget('acme', 'alice', 'job_1700000000000_alice');
    try {
      await codec.decode('ingestRequested', framed);
      expect.fail('should throw');
    } catch (error) {
      expect((error as { code: string }).code).to.equal('KEY.FORGOTTEN');
    }
  });

  it('rejects a sealed body that names another subject than the one it was sealed for', async () => {
    const keys = keysInMemory();
    const codec = new AvroCodec(registryInMemory(), keys);
    const framed = await codec.encode('ingestRequested', text);
    await keys.keyFor('acme', 'alicf', 'job_1700000000000_alice');
    const moved = Buffer.from(framed);
    moved.set(Buffer.from('alicf'), moved.indexOf(Buffer.from('alice')));
    try {
      await codec.decode('ingestRequested', moved);
      expect.fail('should throw');
    } catch (error) {
      expect((error as { code: string }).code).to.equal('CONTRACT.BAD_SEAL');
    }
  });
});

describe('ids', () => {
  it('reads the accept time, the job of a memory and the owner out of derived ids', () => {
    expect(acceptedAtOf('doc_job_1700000000000_a_b_1')).to.equal(1_700_000_000_000);
    expect(acceptedAtOf('mem_img_job_1700000000001_x_0')).to.equal(1_700_000_000_001);
    expect(acceptedAtOf('centroid')).to.equal(null);
    expect(jobIdOfMemory('mem_doc_job_1700000000000_a_b_12')).to.equal('doc_job_1700000000000_a_b');
    expect(jobIdOfMemory('job_1700000000000_a')).to.equal(null);
    expect(isJobIdOf('job_1700000000000_user_2', 'user_2')).to.equal(true);
    expect(isJobIdOf('job_1700000000000_user_2', '2')).to.equal(false);
    expect(isJobIdOf('job_abc_user', 'user')).to.equal(false);
    expect(blobPrefixOf('acme', 'a/b', 'job_1_x')).to.equal('acme/a%2Fb/job_1_x/');
    expect(blobKeyOf('acme', 'a/b', 'job_1_x', 'f.pdf').startsWith(blobPrefixOf('acme', 'a/b', 'job_1_x'))).to.equal(true);
  });

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
