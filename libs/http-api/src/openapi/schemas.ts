import { Type, type TProperties, type TSchema } from '@sinclair/typebox';
import { FILTER_LIMITS, SEARCH_LIMITS, SEARCH_MODES, STRATEGY_NAMES } from '@memory/search';
import { EntityTypeValues, JOB_ID_PATTERN, PageTextSourceValues, SourceKindValues } from '@memory/contracts';
import { REQUEST_LIMITS } from '../limits.js';
import { WEBHOOK_EVENT_TYPES } from '@memory/ports';

/**
 * The JSON Schemas of every request and response body, built from the same limits the validators enforce. The
 * OpenAPI document is made of these; openapi.spec.ts runs each request schema and its validator over the same
 * accepted and refused examples, so a field cannot be checked one way and documented another.
 */
const METADATA = REQUEST_LIMITS.metadata;

export const ErrorBody = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ description: 'Stable code, e.g. AUTH.MISSING_KEY: branch on this, never on the message.' }),
      message: Type.String({ description: 'What went wrong and what to send instead.' }),
      details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
      requestId: Type.String({ description: 'The X-Request-Id of this answer: quote it when reporting the error, it finds the log lines.' }),
    }),
  },
  { $id: 'Error' },
);

// The key pattern of METADATA_LIMITS, without __proto__ (isMetadataKey).
const MetadataKey = Type.String({ pattern: `^(?!__proto__$)${METADATA.keyPattern.source.slice(1)}` });
const JobId = Type.String({ pattern: JOB_ID_PATTERN.source, description: 'job_, img_job_, doc_job_, upd_job_ or del_job_, the millisecond it was accepted and the end user id.' });
const MetadataValue = Type.Union([Type.String({ maxLength: METADATA.maxStringChars }), Type.Number(), Type.Boolean()]);

export const Metadata = Type.Union(
  [
    Type.Null(),
    Type.Record(MetadataKey, MetadataValue, {
      additionalProperties: false,
      maxProperties: METADATA.maxKeys,
      description: `A flat object of string, finite number or boolean values: at most ${METADATA.maxKeys} keys, ${METADATA.maxJsonBytes} bytes as JSON (METADATA.INVALID, METADATA.TOO_LARGE).`,
    }),
  ],
  { $id: 'Metadata' },
);

const IsoTimestamp = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}(?:[T ]\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d{1,9})?)?(?:Z|[+-]\\d{2}:?\\d{2})?)?$',
  description: 'ISO 8601 date or date-time, e.g. 2023-05-08T13:56:00Z',
});
const UserContext = Type.Union([Type.Null(), Type.String({ maxLength: REQUEST_LIMITS.userContextMaxChars })]);
const Content = Type.String({ minLength: 1, maxLength: REQUEST_LIMITS.textMaxChars, pattern: '\\S' });

export const TextIngestRequest = Type.Object(
  {
    source: Type.Object({
      type: Type.Literal('text'),
      content: Content,
      timestamp: Type.Optional(Type.Union([Type.Null(), IsoTimestamp], { description: 'When it was said: relative dates resolve against it instead of the time the request is accepted.' })),
    }),
    userContext: Type.Optional(UserContext),
    metadata: Type.Optional(Type.Ref('Metadata')),
  },
  { $id: 'TextIngestRequest' },
);

const Base64Image = Type.String({
  pattern: '^(?:data:(?:[a-zA-Z]+/[a-zA-Z0-9.+-]+)?(?:;[a-zA-Z0-9=.+-]+)*;base64,)?[A-Za-z0-9+/\\s]*[A-Za-z0-9+/][A-Za-z0-9+/\\s]*(?:=\\s*){0,2}$',
  description: 'The image bytes base64-encoded; a data: URL prefix is accepted (IMAGE.MISSING_DATA, IMAGE.INVALID_BASE64).' });

export const ImageIngestRequest = Type.Object(
  { imageData: Base64Image, userContext: Type.Optional(UserContext), metadata: Type.Optional(Type.Ref('Metadata')) },
  { $id: 'ImageIngestRequest' },
);

const UPDATE_FIELDS = {
  content: Content,
  userContext: UserContext,
  metadata: Type.Ref('Metadata'),
  timestamp: Type.Union([Type.Null(), IsoTimestamp]),
};
/** One way to send an update: `required` present, the other fields optional, nothing else. */
const updateRequiring = (required: 'content' | 'userContext' | 'metadata') =>
  Type.Object(
    Object.fromEntries(Object.entries(UPDATE_FIELDS).map(([name, schema]) => [name, name === required ? schema : Type.Optional(schema)])),
    { additionalProperties: false },
  );

// A union of objects each requiring one field, rather than one object with an anyOf of bare `required` lists: the
// same requests pass, and generated clients get a type that refuses {} or a misspelt field instead of `unknown`.
export const UpdateRequest = Type.Union(
  [updateRequiring('content'), updateRequiring('userContext'), updateRequiring('metadata')],
  {
    $id: 'UpdateRequest',
    description: 'At least one of content, userContext, metadata (UPDATE.NOTHING_TO_CHANGE); no other field (UPDATE.UNKNOWN_FIELD).',
  },
);

const Instant = Type.Union([Type.Integer(), Type.String({ pattern: '^(-?\\d{1,16}|\\d{4}-\\d{2}-\\d{2}(?:T\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d{1,9})?)?(Z|[+-]\\d{2}:?\\d{2})?)?)$' })], {
  description: 'An ISO 8601 date or date-time, or epoch milliseconds.',
});
const OneOrMany = (maxItems: number, maxLength: number) =>
  Type.Union([Type.String({ minLength: 1, maxLength }), Type.Array(Type.String({ minLength: 1, maxLength }), { minItems: 1, maxItems })]);
const MetadataCondition = Type.Union([MetadataValue, Type.Object({ in: Type.Array(MetadataValue, { minItems: 1, maxItems: FILTER_LIMITS.maxMetadataValues }) }, { additionalProperties: false })]);

/** One filter object at a nesting depth (1 at the top): any and not exist only above FILTER_LIMITS.maxDepth. */
function filterAt(depth: number): TSchema {
  const properties: TProperties = {
    memory_type: Type.Optional(OneOrMany(FILTER_LIMITS.maxMemoryTypes, 64)),
    job_id: Type.Optional(OneOrMany(FILTER_LIMITS.maxJobIds, FILTER_LIMITS.maxJobIdChars)),
    created_after: Type.Optional(Instant),
    created_before: Type.Optional(Instant),
    event_after: Type.Optional(Instant),
    event_before: Type.Optional(Instant),
    metadata: Type.Optional(Type.Record(MetadataKey, MetadataCondition, { additionalProperties: false, minProperties: 1, maxProperties: METADATA.maxKeys })),
  };
  if (depth < FILTER_LIMITS.maxDepth) {
    properties['any'] = Type.Optional(Type.Array(filterAt(depth + 1), { minItems: 1, maxItems: FILTER_LIMITS.maxAlternatives }));
    properties['not'] = Type.Optional(filterAt(depth + 1));
  }
  return Type.Object(properties, { additionalProperties: false });
}

export const SearchFilters = Type.Union([Type.Null(), filterAt(1)], {
  $id: 'SearchFilters',
  description: `Every field narrows the search; any holds alternatives, not one filter to exclude, nested at most ${FILTER_LIMITS.maxDepth} levels (FILTER.INVALID, FILTER.UNKNOWN_FIELD).`,
});

const SearchOptions = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: SEARCH_LIMITS.maxLimit, default: SEARCH_LIMITS.defaultLimit })),
  explain: Type.Optional(Type.Boolean({ default: false })),
});
const Query = Type.String({ minLength: 1, maxLength: SEARCH_LIMITS.maxQueryChars, pattern: '\\S' });
const searchCommon = {
  useDynamicScoring: Type.Optional(Type.Boolean({ default: true })),
  options: Type.Optional(SearchOptions),
  filters: Type.Optional(Type.Ref('SearchFilters')),
};

export const SearchRequest = Type.Union(
  [
    Type.Object({ query: Query, strategy: Type.Optional(Type.Union([Type.Null(), Type.Union(STRATEGY_NAMES.map((name) => Type.Literal(name)))])), ...searchCommon }),
    Type.Object({ queryImage: Base64Image, options: Type.Optional(Type.Object({ limit: SearchOptions.properties.limit })), filters: searchCommon.filters }),
  ],
  { $id: 'SearchRequest', description: 'A text query (with an optional forced strategy), or queryImage to search by image.' },
);

export const ModeSearchRequest = Type.Object(
  { query: Query, mode: Type.Union(SEARCH_MODES.map((mode) => Type.Literal(mode))), ...searchCommon },
  { $id: 'ModeSearchRequest' },
);

export const Accepted = Type.Object(
  {
    status: Type.Literal('Accepted'),
    jobId: JobId,
    previewUrl: Type.Optional(Type.String({ description: 'Image ingestion: where the preview is served (same authentication).' })),
    storagePath: Type.Optional(Type.String({ description: 'PDF upload: where the original is kept.' })),
  },
  { $id: 'Accepted' },
);

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const EpochMs = (description: string) => Type.Integer({ description });

// Closed (no additional properties) like the objects libs/search/src/payload.ts builds, so the conformance tests,
// which check real answers against this document, fail when the service answers a field the document lacks.
const closed = { additionalProperties: false } as const;

const Payload = Type.Object(
  {
    memory_type: Type.String(),
    content: Type.String(),
    original_content: Type.String({ description: 'The text as it was sent, before its dates were resolved: an image\'s userContext (empty without one), a PDF page\'s text.' }),
    movie_genre: Type.Optional(Type.String({ description: 'Present for movie-related memories.' })),
    sentiment: Type.String(),
    mentioned_titles: Type.Array(Type.String()),
    themes: Type.Array(Type.String()),
    entities: Type.Array(Type.Object({ name: Type.String(), type: Type.Union(EntityTypeValues.map((type) => Type.Literal(type))) }, closed)),
    event_times: Type.Array(
      Type.Object(
        {
          text: Type.String({ description: 'The words as written, e.g. next Friday.' }),
          iso: Type.String({ description: 'The ISO 8601 text put into content.' }),
          start: EpochMs('Start of the period, in milliseconds since the epoch.'),
          end: EpochMs('End of the period (exclusive), in milliseconds since the epoch.'),
        },
        closed,
      ),
      { description: 'The periods the memory mentions, resolved; temporal search filters on these.' },
    ),
    user_id: Type.String(),
    created_at: EpochMs('When the memory was created, in milliseconds since the epoch.'),
    source_type: Type.Union(SourceKindValues.map((kind) => Type.Literal(kind))),
    job_id: Type.String(),
    version: Type.Integer(),
    embedding_model: Type.String({ description: 'name@version of the model that made the memory\'s vector.' }),
    metadata: Type.Record(Type.String(), MetadataValue),
    image: Type.Optional(Type.Object(
      {
        width: Type.Integer(),
        height: Type.Integer(),
        format: Type.String(),
        dominant_colours: Type.Array(Type.Object({ hex: Type.String(), share: Type.Number(), name: Type.String() }, closed)),
        perceptual_hash: Type.String({ description: '64-bit DCT hash, 16 hex digits.' }),
        captured_at: nullable(EpochMs('EXIF capture time, in milliseconds since the epoch, when present and plausible.')),
        ocr_text: Type.String({ description: 'Text read in the image; empty when none.' }),
      },
      { ...closed, description: 'Image memories: what was seen in the picture.' },
    )),
    document: Type.Optional(Type.Object(
      {
        document_id: Type.String({ description: 'The upload\'s job id: one document per upload.' }),
        file_name: nullable(Type.String()),
        page_number: Type.Integer({ minimum: 1 }),
        page_count: Type.Integer({ minimum: 1 }),
        text_source: Type.Union(PageTextSourceValues.map((source) => Type.Literal(source)), { description: 'Where the page text came from: a scanned page has no text layer.' }),
      },
      { ...closed, description: 'PDF page memories: which page of which document.' },
    )),
  },
  { ...closed, description: 'The memory: its text, enrichment (themes, entities, event_times, sentiment...) and metadata.' },
);

export const Memory = Type.Object({ id: Type.String(), payload: Payload }, { $id: 'Memory' });

export const SearchHit = Type.Object(
  {
    id: Type.String(),
    finalScore: Type.Number({ minimum: 0, maximum: 1 }),
    payload: Payload,
    searchedWithNode: Type.String(),
    explain: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { $id: 'SearchHit' },
);

export const SearchResponse = Type.Object(
  {
    data: Type.Array(Type.Ref('SearchHit')),
    routing: Type.Optional(Type.Object({ recipe: Type.String(), strategies: Type.Array(Type.String()) }, { description: 'Text search: which strategies ran and why.' })),
  },
  { $id: 'SearchResponse' },
);

export const MemoryPage = Type.Object(
  { data: Type.Array(Type.Ref('Memory')), nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass it as cursor for the next page; null on the last.' }) },
  { $id: 'MemoryPage' },
);

export const MemoryHistory = Type.Object(
  {
    data: Type.Array(
      Type.Object({ version: Type.Integer(), content: Type.String(), changedAt: Type.Number(), cause: Type.String() }),
    ),
  },
  { $id: 'MemoryHistory' },
);

export const Job = Type.Object(
  {
    jobId: JobId,
    status: Type.Union([Type.Literal('Accepted'), Type.Literal('Processing'), Type.Literal('Completed'), Type.Literal('Failed')]),
    stage: Type.Union([Type.String(), Type.Null()]),
    endUserId: Type.String(),
    memoryIds: Type.Array(Type.String()),
    partCount: Type.Union([Type.Integer(), Type.Null()]),
    error: Type.Optional(Type.Object({ code: Type.Union([Type.String(), Type.Null()]), reason: Type.Union([Type.String(), Type.Null()]) })),
    receipt: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'A forgetting job: what was removed where.' })),
    acceptedAt: Type.Number(),
    updatedAt: Type.Number(),
    requestId: Type.Union([Type.String(), Type.Null()], { description: 'The X-Request-Id of the request that accepted the job; its log lines in every stage carry it.' }),
  },
  { $id: 'Job' },
);

export const Liveness = Type.Object({ status: Type.Literal('ok') }, { $id: 'Liveness' });
export const Readiness = Type.Object(
  {
    status: Type.Union([Type.Literal('ready'), Type.Literal('starting')]),
    checks: Type.Record(Type.String(), Type.String()),
    lag: Type.Record(Type.String(), Type.Number()),
  },
  { $id: 'Readiness' },
);

export const DocumentUpload = Type.Object(
  {
    file: Type.String({ format: 'binary', contentMediaType: 'application/pdf', description: 'The PDF (Content-Type application/pdf).' }),
    metadata: Type.Optional(Type.String({ contentMediaType: 'application/json', description: 'The metadata object as JSON text.' })),
  },
  { $id: 'DocumentUpload' },
);

const WebhookEventType = Type.Union(WEBHOOK_EVENT_TYPES.map((event) => Type.Literal(event)));

export const WebhookRequest = Type.Object(
  {
    url: Type.String({ format: 'uri', description: 'http(s) URL the events are POSTed to; private addresses are refused unless MEMORY_WEBHOOKS_ALLOW_PRIVATE.' }),
    events: Type.Array(WebhookEventType, { minItems: 1 }),
  },
  { $id: 'WebhookRequest', additionalProperties: false },
);

export const Webhook = Type.Object({ id: Type.String(), url: Type.String(), events: Type.Array(WebhookEventType), createdAt: Type.String({ format: 'date-time' }) }, { $id: 'Webhook' });
export const WebhookCreated = Type.Object(
  { id: Type.String(), url: Type.String(), events: Type.Array(WebhookEventType), createdAt: Type.String({ format: 'date-time' }), secret: Type.String({ description: 'whsec_ + base64: shown once.' }) },
  { $id: 'WebhookCreated' },
);
export const WebhookList = Type.Object({ data: Type.Array(Type.Ref('Webhook')) }, { $id: 'WebhookList' });
export const WebhookSecret = Type.Object(
  { id: Type.String(), secret: Type.String({ description: 'The new secret, shown once.' }), previousSecretsExpireAt: Type.String({ format: 'date-time' }) },
  { $id: 'WebhookSecret' },
);
export const WebhookDelivery = Type.Object(
  {
    id: Type.String(),
    eventType: WebhookEventType,
    state: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
    attempts: Type.Integer(),
    lastStatus: nullable(Type.Integer()),
    lastError: nullable(Type.String()),
    nextAttemptAt: nullable(Type.String({ format: 'date-time' })),
    createdAt: nullable(Type.String({ format: 'date-time' })),
    updatedAt: nullable(Type.String({ format: 'date-time' })),
  },
  { $id: 'WebhookDelivery' },
);
export const WebhookDeliveryList = Type.Object({ data: Type.Array(Type.Ref('WebhookDelivery')) }, { $id: 'WebhookDeliveryList' });

/**
 * The body of every webhook delivery (libs/pipeline/webhook-dispatcher, webhookBody): ids and states, never memory
 * content. In the document both as a component and under `webhooks`, so clients generate its type like the routes'.
 */
export const WebhookEvent = Type.Object(
  {
    type: WebhookEventType,
    timestamp: Type.String({ format: 'date-time', description: 'When the job ended (the log time), ISO 8601.' }),
    data: Type.Object(
      {
        jobId: JobId,
        status: Type.Union([Type.Literal('Completed'), Type.Literal('Failed')]),
        endUserId: Type.String(),
        memoryIds: Type.Array(Type.String(), { description: 'The job\'s memory ids; memory.deleted of one memory: that memory.' }),
        error: Type.Optional(Type.Object({ code: nullable(Type.String()), reason: nullable(Type.String()) }, { ...closed, description: 'job.failed: why.' })),
        targetJobId: Type.Optional(Type.String({ description: 'memory.deleted of every memory of a job: that job.' })),
      },
      closed,
    ),
  },
  { $id: 'WebhookEvent', ...closed, description: 'A webhook delivery\'s body, signed as Standard Webhooks specifies (webhook-id, webhook-timestamp, webhook-signature).' },
);

/** Every named schema, by $id: components.schemas of the document, and what ajv resolves $refs against. */
export const COMPONENT_SCHEMAS: TSchema[] = [
  ErrorBody,
  Metadata,
  TextIngestRequest,
  ImageIngestRequest,
  UpdateRequest,
  SearchFilters,
  SearchRequest,
  ModeSearchRequest,
  Accepted,
  Memory,
  SearchHit,
  SearchResponse,
  MemoryPage,
  MemoryHistory,
  Job,
  Liveness,
  Readiness,
  DocumentUpload,
  WebhookRequest,
  Webhook,
  WebhookCreated,
  WebhookList,
  WebhookSecret,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookEvent,
];
