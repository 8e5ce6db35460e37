import { WEBHOOK_EVENT_TYPES } from '@memory/ports';
import { REQUEST_LIMITS } from '../limits.js';
import { ID_PATTERN } from '../validation.js';
import { OPERATIONS, type OperationSpec, type ResponseSpec } from './operations.js';
import { COMPONENT_SCHEMAS } from './schemas.js';

type Json = Record<string, unknown>;

const SCHEMA_REF = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** TypeBox's `$ref: "Metadata"` and `$id` are for ajv; the document refers to components.schemas instead. */
function forDocument(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(forDocument);
  if (value === null || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === '$id') continue;
    out[key] = key === '$ref' && typeof inner === 'string' && !inner.startsWith('#') ? `#/components/schemas/${inner}` : forDocument(inner);
  }
  return out;
}

export const HEADER_PARAMETERS = {
  EndUserId: {
    name: 'x-end-user-id', in: 'header',
    description: `The end user whose memories the request acts on: 1-${REQUEST_LIMITS.endUserIdMaxChars} characters of letters, digits and . _ @ : + - (REQUEST.MISSING_END_USER, REQUEST.INVALID_END_USER).`,
    schema: { type: 'string', minLength: 1, maxLength: REQUEST_LIMITS.endUserIdMaxChars, pattern: ID_PATTERN.source },
  },
  EndUserTimeZone: {
    name: 'x-end-user-timezone', in: 'header', required: false,
    description: 'IANA time zone that decides what "tomorrow at 5pm" means; UTC when absent (REQUEST.INVALID_TIMEZONE).',
    schema: { type: 'string', examples: ['Europe/Berlin'] },
  },
  RequestId: {
    name: 'X-Request-Id', in: 'header', required: false,
    description: 'An id for this request, answered back in X-Request-Id, in an error body and on the job, and written in every log line about it: 1-128 letters, digits and . _ : + / = -. Absent or not of that form, the service generates one.',
    schema: { type: 'string', pattern: '^[A-Za-z0-9._:+/=-]{1,128}$' },
  },
  IdempotencyKey: {
    name: 'Idempotency-Key', in: 'header', required: false,
    description: 'Makes a retry answer with the first job instead of accepting a second: 1-255 printable ASCII characters, kept 24 hours (IDEMPOTENCY.INVALID_KEY).',
    schema: { type: 'string', pattern: '^[\\x20-\\x7E]{1,255}$' },
  },
};

const RESPONSE_HEADERS: Record<string, Json> = {
  'X-Request-Id': { description: 'The id of this request: the one sent in X-Request-Id, or a generated one.', schema: { type: 'string' } },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Limit': { description: "The API key's burst: requests that may be sent at once (MEMORY_TENANT_BURST).", schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Remaining': { description: 'Requests that may still be sent now.', schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Reset': { description: 'Seconds until the full burst is available again.', schema: { type: 'integer', minimum: 0 } },
  'Idempotent-Replayed': { description: '"true" when this is the stored answer of an earlier request with the same Idempotency-Key.', schema: { type: 'string', enum: ['true'] } },
};

function response(spec: ResponseSpec): Json {
  const description = spec.codes ? `${spec.description} Codes: ${spec.codes.join(', ')}.` : spec.description;
  const content = spec.schema ? { 'application/json': { schema: SCHEMA_REF(spec.schema) } } : spec.mediaType ? { [spec.mediaType]: { schema: { type: 'string', format: 'binary' } } } : undefined;
  // Every answer carries X-Request-Id (requestEnvelope).
  const headers = Object.fromEntries(['X-Request-Id', ...(spec.headers ?? [])].map((name) => [name, RESPONSE_HEADERS[name]]));
  return {
    description,
    ...(content ? { content } : {}),
    headers,
    ...(spec.links ? { links: spec.links } : {}),
    ...(spec.codes ? { 'x-error-codes': spec.codes } : {}),
  };
}

/** What every authenticated route may also answer: a key problem, or an engine that is down. */
const AUTH_RESPONSES: Record<number, ResponseSpec> = {
  401: { description: 'No API key, a malformed Authorization header, or an unknown key.', schema: 'Error', codes: ['AUTH.MISSING_KEY', 'AUTH.MALFORMED', 'AUTH.INVALID_KEY'] },
  503: { description: 'A store or the log failed: retry with backoff (after Retry-After seconds at least), with the same Idempotency-Key, so that a request taken just before the failure (the log took the event and its answer was lost) is not taken twice.', schema: 'Error', codes: ['SERVICE.UNAVAILABLE', 'SEARCH.UNAVAILABLE'], headers: ['Retry-After'] },
};

/** An end user id in a path is checked as the header is; every other path parameter is an id (REQUEST.INVALID_ID). */
function pathParamSchema(name: string): Json {
  if (name === 'endUserId') return HEADER_PARAMETERS.EndUserId.schema;
  return { type: 'string', minLength: 1, maxLength: REQUEST_LIMITS.idMaxChars, pattern: ID_PATTERN.source };
}

function withCode(answer: ResponseSpec | undefined, code: string, description: string): ResponseSpec {
  return answer ? { ...answer, codes: [...(answer.codes ?? []), code] } : { description, schema: 'Error', codes: [code] };
}

function operation(spec: OperationSpec): Json {
  const parameters: Json[] = [];
  for (const [name, description] of Object.entries(spec.pathParams ?? {})) parameters.push({ name, in: 'path', required: true, description, schema: pathParamSchema(name) });
  for (const [name, query] of Object.entries(spec.query ?? {})) parameters.push({ name, in: 'query', required: query.required ?? false, description: query.description, schema: query.schema });
  if (spec.headers?.endUser) parameters.push({ ...HEADER_PARAMETERS.EndUserId, required: spec.headers.endUser === 'required' });
  if (spec.headers?.timeZone) parameters.push(HEADER_PARAMETERS.EndUserTimeZone);
  if (spec.headers?.idempotencyKey) parameters.push(HEADER_PARAMETERS.IdempotencyKey);
  parameters.push(HEADER_PARAMETERS.RequestId);
  // An operation's own answer for a status wins: the write routes say more about their 503 (SERVICE.OVERLOADED).
  const responses = { ...(spec.auth ? AUTH_RESPONSES : {}), ...spec.responses };
  if (Object.keys(spec.pathParams ?? {}).some((name) => name !== 'endUserId')) responses[400] = withCode(responses[400], 'REQUEST.INVALID_ID', 'A path id is malformed.');
  return {
    operationId: spec.operationId,
    summary: spec.summary,
    tags: [spec.tag],
    security: spec.auth ? [{ bearerAuth: [] }] : [],
    parameters,
    ...(spec.body ? { requestBody: { required: true, content: { [spec.body.mediaType ?? 'application/json']: { schema: SCHEMA_REF(spec.body.schema) } } } } : {}),
    responses: Object.fromEntries(Object.entries(responses).map(([status, answer]) => [status, response(answer)])),
  };
}

const WEBHOOK_HEADERS = [
  ['webhook-id', 'The delivery\'s id, the same on every attempt: drop duplicates by it (delivery is at least once).'],
  ['webhook-timestamp', 'Seconds since the epoch when this attempt was signed.'],
  ['webhook-signature', 'Space-separated v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>"> keyed by the secret\'s bytes after whsec_.'],
];

/**
 * OpenAPI 3.1 `webhooks`: what the service POSTs to the endpoints registered for each event type. Without an
 * operationId, so a client generated from the document gets the body's type and no method to call.
 */
function webhooks(): Record<string, Json> {
  return Object.fromEntries(WEBHOOK_EVENT_TYPES.map((type) => [type, {
    post: {
      summary: `A ${type} event, sent to every endpoint registered for it (POST /v1/webhooks), signed as Standard Webhooks specifies.`,
      tags: ['webhooks'],
      parameters: WEBHOOK_HEADERS.map(([name, description]) => ({ name, in: 'header', required: true, description, schema: { type: 'string' } })),
      requestBody: { required: true, content: { 'application/json': { schema: SCHEMA_REF('WebhookEvent') } } },
      responses: { '2XX': { description: 'Delivered. Any other answer, or none in time, is retried with backoff (README, Webhooks).' } },
    },
  }]));
}

/** The OpenAPI 3.1 document of the service: OPERATIONS over the schemas the validators are checked against. */
export function openApiDocument(): Json {
  const paths: Record<string, Json> = {};
  for (const spec of OPERATIONS) paths[spec.path] = { ...paths[spec.path], [spec.method]: operation(spec) };
  const schemas = Object.fromEntries(COMPONENT_SCHEMAS.map((schema) => [schema['$id'] as string, forDocument(schema)]));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Memory service',
      version: '0.1.0',
      description: 'Text, images and PDFs in, memories out, found again by search. Every 4xx and 5xx has the body {"error":{"code","message","details","requestId"}}; branch on the stable code.',
    },
    security: [{ bearerAuth: [] }],
    tags: ['health', 'ingestion', 'search', 'memories', 'forgetting', 'jobs', 'reference'].map((name) => ({ name })),
    paths,
    webhooks: webhooks(),
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key (MEMORY_API_KEYS, or the development key printed at first start); it stands for a tenant.' } },
      schemas,
    },
  };
}
