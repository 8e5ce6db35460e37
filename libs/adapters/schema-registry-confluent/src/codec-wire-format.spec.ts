import { expect } from 'chai';
import { SchemaRegistry as ConfluentClient, SchemaType } from '@kafkajs/confluent-schema-registry';
import { AvroCodec, EVENTS, latestSchema, schemaVersions, subjectOf, type IngestRequested, type SchemaRegistryClient } from '@memory/contracts';
import type { SchemaRegistry } from '@memory/ports';
import { describeWithEngine, localEngines, uniqueName } from '@memory/testing';
import { confluentSchemaRegistryOptionsFromEnv, createConfluentSchemaRegistry } from './index.js';

const options = confluentSchemaRegistryOptionsFromEnv();

const engine = localEngines().registry;

/**
 * The codec registers under the topic's real subject (TopicNameStrategy). On a shared registry every run gets its
 * own subjects instead; ids belong to the schema, not the subject, so the frames are the same either way.
 */
function underPrefix(registry: SchemaRegistry, prefix: string): SchemaRegistryClient {
  return {
    register: (subject, schema) => registry.register(`${prefix}${subject}`, schema),
    schemaById: (id) => registry.schemaById(id),
  };
}

/** Decoders return avsc record instances; compare values, not prototypes. */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

const fixture = schemaVersions(EVENTS.ingestRequested.schema).at(-1)!.fixture as IngestRequested;

describeWithEngine('Confluent wire format through the real registry', engine, () => {
  let registry: SchemaRegistry;
  let prefix: string;
  // Confluent's own JavaScript client, as a second, independent reader and writer of the same frames.
  let confluent: ConfluentClient;

  beforeEach(async () => {
    registry = await createConfluentSchemaRegistry(options);
    prefix = `${uniqueName('codec')}.`;
    confluent = new ConfluentClient({ host: options.url.replace(/\/+$/, '') });
  });
  afterEach(() => registry.close());

  it('frames an event as magic byte 0, the 4-byte id of its schema, the Avro body, and Confluent\'s client decodes it', async () => {
    const codec = new AvroCodec(underPrefix(registry, prefix));
    const frame = await codec.encode('ingestRequested', fixture);

    expect(frame.readUInt8(0)).to.equal(0);
    const id = frame.readUInt32BE(1);
    const latest = await registry.schemaByVersion(`${prefix}${subjectOf(EVENTS.ingestRequested.topic)}`, 'latest');
    expect(latest).to.include({ id, version: 1 });
    expect(JSON.parse(latest.schema)).to.deep.equal(latestSchema('ingestRequested'));

    expect(plain(await confluent.decode(frame))).to.deep.equal(fixture);
    expect(plain(await new AvroCodec(underPrefix(registry, prefix)).decode('ingestRequested', frame))).to.deep.equal(fixture);
  });

  it('decodes what Confluent\'s client wrote with an older writer schema, resolving it into the newest one', async () => {
    // An older edition of the event, before timeZone and userContext existed (both have defaults in the newest).
    const newest = latestSchema('ingestRequested') as { fields: Array<{ name: string }> };
    const older = { ...newest, fields: newest.fields.filter((field) => field.name !== 'timeZone' && field.name !== 'userContext') };
    const { id } = await confluent.register({ type: SchemaType.AVRO, schema: JSON.stringify(older) }, { subject: `${prefix}older` });
    const { timeZone: _t, userContext: _u, ...olderPayload } = fixture;
    const frame = await confluent.encode(id, olderPayload);

    const decoded = await new AvroCodec(underPrefix(registry, prefix)).decode('ingestRequested', frame);
    expect(plain(decoded)).to.deep.equal({ ...fixture, timeZone: null, userContext: null });
    // The id Confluent's client got is one our adapter resolves to the same schema.
    expect(JSON.parse(await registry.schemaById(id))).to.deep.equal(older);
  });

  it('lets Confluent\'s client encode with a schema the adapter registered, read back by id', async () => {
    const codec = new AvroCodec(underPrefix(registry, prefix));
    const id = (await codec.encode('ingestRequested', fixture)).readUInt32BE(1);
    // A fresh client knows nothing yet: encode() fetches the schema by id from the registry.
    const frame = await new ConfluentClient({ host: options.url.replace(/\/+$/, '') }).encode(id, fixture);
    expect(frame.readUInt32BE(1)).to.equal(id);
    expect(plain(await codec.decode('ingestRequested', frame))).to.deep.equal(fixture);
  });
});
