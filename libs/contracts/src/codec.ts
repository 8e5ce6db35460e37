import avro from 'avsc';
import { MemoryServiceError } from '@memory/platform';
import { EVENTS, latestSchema, subjectOf, type EventName } from './catalog.js';
import { keyForgotten, openBody, SEALED_EVENTS, sealBody, sealedSubject, type ContentKeys, type SealedBy } from './sealing.js';
import type { IngestRequested, MemoryResolved, MemoryEnriched, MemoryCommitted, CentroidUpdated, JobStatus, DeadLetter, ForgetRequested } from './generated/events.js';

/** The payload type of each event, derived from its schema. */
export interface EventPayloads {
  ingestRequested: IngestRequested;
  resolved: MemoryResolved;
  enriched: MemoryEnriched;
  committed: MemoryCommitted;
  centroidUpdated: CentroidUpdated;
  jobStatus: JobStatus;
  deadLetter: DeadLetter;
  forgetRequested: ForgetRequested;
}

/** The part of a Confluent-API schema registry the codec needs; adapters implement it (embedded or REST). */
export interface SchemaRegistryClient {
  /** Registers the schema under the subject (idempotent) and returns its global id. */
  register(subject: string, schema: string): Promise<number>;
  /** The schema text a global id stands for. */
  schemaById(id: number): Promise<string>;
}

const MAGIC_BYTE = 0;
/** Our own frame for sealed content (see sealing.ts): the same 5-byte header, then the sealed body. */
export const SEALED_MAGIC_BYTE = 1;
const HEADER_BYTES = 5;

/**
 * Confluent wire format in both modes: magic byte 0, the writer schema's 4-byte big-endian id, the Avro body.
 * Readers decode with the writer's schema resolved into the newest local schema, so old events stay readable.
 */
export class AvroCodec {
  private readonly readers = new Map<EventName, avro.Type>();
  private readonly writerIds = new Map<EventName, Promise<number>>();
  private readonly resolvers = new Map<string, Promise<avro.Resolver | null>>();

  /**
   * Without content keys every event is written in the plain wire format (tests of the format itself); a service
   * always passes them, so events with content are sealed.
   */
  constructor(
    private readonly registry: SchemaRegistryClient,
    private readonly keys?: ContentKeys,
  ) {}

  /** Rejects with KEY.FORGOTTEN when the event's subject was forgotten: such an event must not be written. */
  async encode<N extends EventName>(name: N, value: EventPayloads[N]): Promise<Buffer> {
    const id = await this.writerId(name);
    let body: Buffer;
    try {
      body = this.reader(name).toBuffer(value);
    } catch (cause) {
      throw new MemoryServiceError('CONTRACT.INVALID_EVENT', `event ${name} does not match its schema: ${(cause as Error).message}`, { cause });
    }
    const sealedBy = SEALED_EVENTS[name] as ((value: EventPayloads[N]) => ReturnType<SealedBy>) | undefined;
    const subject = this.keys !== undefined && sealedBy !== undefined ? sealedBy(value) : null;
    const header = Buffer.allocUnsafe(HEADER_BYTES);
    header.writeUInt8(subject ? SEALED_MAGIC_BYTE : MAGIC_BYTE, 0);
    header.writeUInt32BE(id, 1);
    if (!subject) return Buffer.concat([header, body]);
    const key = await this.keys!.keyFor(subject.tenantId, subject.endUserId, subject.keyId);
    return Buffer.concat([header, sealBody(subject, subject.keyId, key, body)]);
  }

  /** Rejects with KEY.FORGOTTEN for a sealed event whose subject was forgotten since. */
  async decode<N extends EventName>(name: N, message: Buffer): Promise<EventPayloads[N]> {
    const magic = message.length >= HEADER_BYTES ? message.readUInt8(0) : -1;
    if (magic !== MAGIC_BYTE && magic !== SEALED_MAGIC_BYTE) {
      throw new MemoryServiceError('CONTRACT.BAD_FRAME', `not a Confluent wire-format ${name} record (missing magic byte)`);
    }
    const writerId = message.readUInt32BE(1);
    const reader = this.reader(name);
    const resolver = await this.resolver(name, writerId);
    let body = message.subarray(HEADER_BYTES);
    if (magic === SEALED_MAGIC_BYTE) {
      if (!this.keys) throw new MemoryServiceError('CONTRACT.SEALED', `a sealed ${name} record needs content keys to be read`);
      const { tenantId, endUserId, keyId } = sealedSubject(body);
      const key = await this.keys.existingKey(tenantId, endUserId, keyId);
      if (!key) throw keyForgotten(tenantId, endUserId, keyId);
      body = openBody(body, key);
    }
    return (resolver ? reader.fromBuffer(body, resolver) : reader.fromBuffer(body)) as EventPayloads[N];
  }

  /** Registers every event's newest schema; called once at start so the first request pays nothing. */
  async registerAll(): Promise<void> {
    await Promise.all((Object.keys(EVENTS) as EventName[]).map((name) => this.writerId(name)));
  }

  private reader(name: EventName): avro.Type {
    let type = this.readers.get(name);
    if (!type) {
      type = avro.Type.forSchema(latestSchema(name) as avro.Schema);
      this.readers.set(name, type);
    }
    return type;
  }

  private writerId(name: EventName): Promise<number> {
    let id = this.writerIds.get(name);
    if (!id) {
      id = this.registry.register(subjectOf(EVENTS[name].topic), JSON.stringify(latestSchema(name)));
      id.catch(() => this.writerIds.delete(name));
      this.writerIds.set(name, id);
    }
    return id;
  }

  private resolver(name: EventName, writerId: number): Promise<avro.Resolver | null> {
    const cacheKey = `${name}:${writerId}`;
    let resolver = this.resolvers.get(cacheKey);
    if (!resolver) {
      resolver = (async () => {
        if (writerId === (await this.writerId(name))) return null; // same schema: no resolution needed
        const writer = avro.Type.forSchema(JSON.parse(await this.registry.schemaById(writerId)) as avro.Schema);
        return this.reader(name).createResolver(writer);
      })();
      resolver.catch(() => this.resolvers.delete(cacheKey));
      this.resolvers.set(cacheKey, resolver);
    }
    return resolver;
  }
}
