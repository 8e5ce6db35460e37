import { REQUEST_LIMITS } from '../limits.js';

/** One answer of an operation: its body schema (a components.schemas name) and, for errors, the codes it carries. */
export interface ResponseSpec {
  description: string;
  schema?: string;
  codes?: string[];
  /** Headers the answer carries, e.g. Retry-After. */
  headers?: string[];
  /** A body that is not JSON, e.g. image/webp. */
  mediaType?: string;
  /** OpenAPI links: the operations this answer leads to, and the values it hands them. */
  links?: Record<string, { operationId: string; parameters: Record<string, string> }>;
}

export interface OperationSpec {
  method: 'get' | 'post' | 'patch' | 'delete';
  /** OpenAPI form: /v1/memories/{id}. */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  /** Bearer API key (every /v1 route). */
  auth: boolean;
  /** Header parameters by name; required ones marked. */
  headers?: { endUser?: 'required' | 'optional'; timeZone?: boolean; idempotencyKey?: boolean };
  pathParams?: Record<string, string>;
  query?: Record<string, { description: string; schema: Record<string, unknown>; required?: boolean }>;
  body?: { schema: string; mediaType?: string };
  responses: Record<number, ResponseSpec>;
}

const JSON_BODY_ERRORS = {
  400: ['REQUEST.INVALID_JSON', 'REQUEST.INVALID_BODY'],
  413: ['REQUEST.TOO_LARGE'],
  415: ['REQUEST.UNSUPPORTED_MEDIA_TYPE', 'REQUEST.UNSUPPORTED_ENCODING'],
};
const END_USER_ERRORS = ['REQUEST.MISSING_END_USER', 'REQUEST.INVALID_END_USER'];
const IDEMPOTENCY_ERRORS = { 400: ['IDEMPOTENCY.INVALID_KEY'], 409: ['IDEMPOTENCY.IN_PROGRESS'], 422: ['IDEMPOTENCY.KEY_REUSED'] };

const error = (description: string, codes: string[], headers?: string[]): ResponseSpec => ({ description, schema: 'Error', codes, ...(headers ? { headers } : {}) });
/** Backpressure, on every route that creates a job (admission.ts; README, "Limits and backpressure"). */
const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];
const ADMISSION_ERRORS = {
  429: error('Over the API key\'s request rate or jobs in flight: nothing was accepted; retry after Retry-After.', ['RATE.LIMITED', 'RATE.TOO_MANY_IN_FLIGHT'], ['Retry-After', ...RATE_LIMIT_HEADERS]),
  503: error('The pipeline is too far behind (SERVICE.OVERLOADED: nothing was accepted), or a store or the log failed (SERVICE.UNAVAILABLE: a request taken just before the failure may have been accepted); retry after Retry-After, with backoff and the same Idempotency-Key.', ['SERVICE.OVERLOADED', 'SERVICE.UNAVAILABLE'], ['Retry-After']),
  507: error('The data folder\'s disk is nearly full: nothing was accepted (what was accepted before is kept); retry after Retry-After.', ['STORAGE.FULL'], ['Retry-After']),
};
// A link carries the end user along: another end user's job or memory is a 404 by design.
const SAME_END_USER = { 'header.x-end-user-id': '$request.header.x-end-user-id' };
const link = (operationId: string, parameters: Record<string, string>) => ({ operationId, parameters: { ...parameters, ...SAME_END_USER } });
const accepted: ResponseSpec = {
  description: 'Accepted: processed in the background; follow the job at GET /v1/jobs/{jobId}.',
  schema: 'Accepted',
  headers: ['Idempotent-Replayed', ...RATE_LIMIT_HEADERS],
  links: { job: link('getJob', { jobId: '$response.body#/jobId' }) },
};
/** What a job's first memory leads to. */
const memoryLinks = (id: string) => ({
  memory: link('getMemory', { id }),
  history: link('getMemoryHistory', { id }),
  update: link('updateMemory', { id }),
  forget: link('deleteMemory', { id }),
});
const memoryId = { id: 'The memory id (mem_...).' };
const webhookId = { webhookId: 'The webhook id POST /v1/webhooks answered.' };

/**
 * Every route the service answers, with what it reads and every status it can answer. The document is built from
 * this table; openapi.spec.ts fails when the Express router (plus the text fast path) and this table differ.
 */
export const OPERATIONS: OperationSpec[] = [
  {
    method: 'get', path: '/openapi.json', operationId: 'getOpenApiDocument', summary: 'This document.', tag: 'reference', auth: false,
    responses: { 200: { description: 'The OpenAPI 3.1 document.', mediaType: 'application/json' } },
  },
  {
    method: 'get', path: '/docs', operationId: 'getReferencePage', summary: 'A readable reference page of this document.', tag: 'reference', auth: false,
    responses: { 200: { description: 'The reference page.', mediaType: 'text/html' } },
  },
  {
    method: 'get', path: '/health/live', operationId: 'getLiveness', summary: 'Liveness: the process serves HTTP.', tag: 'health', auth: false,
    responses: { 200: { description: 'Alive.', schema: 'Liveness' } },
  },
  {
    method: 'get', path: '/health/ready', operationId: 'getReadiness', summary: 'Readiness: the model, the log and the stages are up, with the lag of each consumer group.', tag: 'health', auth: false,
    responses: { 200: { description: 'Ready.', schema: 'Readiness' }, 503: { description: 'Still starting, or an engine is down.', schema: 'Readiness', headers: ['Retry-After'] } },
  },
  {
    method: 'get', path: '/metrics', operationId: 'getMetrics', summary: 'Prometheus metrics of this process (unauthenticated; MEMORY_METRICS=off removes the route).', tag: 'health', auth: false,
    responses: { 200: { description: 'The Prometheus text exposition format.', mediaType: 'text/plain' } },
  },
  {
    method: 'post', path: '/v1/memory', operationId: 'addMemory', summary: 'Ingest a text memory.', tag: 'ingestion', auth: true,
    headers: { endUser: 'required', timeZone: true, idempotencyKey: true },
    body: { schema: 'TextIngestRequest' },
    responses: {
      202: accepted,
      ...ADMISSION_ERRORS,
      400: error('The request cannot be read.', [...JSON_BODY_ERRORS[400], 'REQUEST.INVALID_FIELD', ...END_USER_ERRORS, 'REQUEST.INVALID_TIMEZONE', 'INGEST.INVALID_SOURCE_TYPE', 'INGEST.MISSING_CONTENT', 'INGEST.INVALID_TIMESTAMP', 'METADATA.INVALID', 'METADATA.TOO_LARGE', ...IDEMPOTENCY_ERRORS[400]]),
      409: error('The first request with this Idempotency-Key is still being answered (Retry-After), or the end user was erased while this one was being accepted.', [...IDEMPOTENCY_ERRORS[409], 'REQUEST.END_USER_ERASED'], ['Retry-After']),
      413: error('Over a limit.', [...JSON_BODY_ERRORS[413], 'INGEST.TOO_LARGE']),
      415: error('Not JSON.', JSON_BODY_ERRORS[415]),
      422: error('This Idempotency-Key was used for a different request.', IDEMPOTENCY_ERRORS[422]),
    },
  },
  {
    method: 'post', path: '/v1/memory/image', operationId: 'addImageMemory', summary: 'Ingest an image memory (base64).', tag: 'ingestion', auth: true,
    headers: { endUser: 'required', timeZone: true, idempotencyKey: true },
    body: { schema: 'ImageIngestRequest' },
    responses: {
      202: { ...accepted, links: { ...accepted.links, preview: link('getImagePreview', { jobId: '$response.body#/jobId' }) } },
      ...ADMISSION_ERRORS,
      400: error('The request cannot be read.', [...JSON_BODY_ERRORS[400], 'REQUEST.INVALID_FIELD', ...END_USER_ERRORS, 'REQUEST.INVALID_TIMEZONE', 'IMAGE.MISSING_DATA', 'IMAGE.INVALID_BASE64', 'IMAGE.UNREADABLE', 'METADATA.INVALID', 'METADATA.TOO_LARGE', ...IDEMPOTENCY_ERRORS[400]]),
      409: error('The first request with this Idempotency-Key is still being answered (Retry-After), or the end user was erased while this one was being accepted.', [...IDEMPOTENCY_ERRORS[409], 'REQUEST.END_USER_ERASED'], ['Retry-After']),
      413: error('Over a limit.', [...JSON_BODY_ERRORS[413], 'INGEST.TOO_LARGE', 'IMAGE.TOO_LARGE', 'IMAGE.TOO_MANY_PIXELS']),
      415: error('Not JSON, or not an image we accept.', [...JSON_BODY_ERRORS[415], 'IMAGE.UNSUPPORTED_FORMAT', 'IMAGE.UNREADABLE']),
      422: error('This Idempotency-Key was used for a different request.', IDEMPOTENCY_ERRORS[422]),
    },
  },
  {
    method: 'get', path: '/v1/memory/image/{jobId}/preview', operationId: 'getImagePreview', summary: "An image memory's preview (WebP).", tag: 'ingestion', auth: true,
    headers: { endUser: 'required' },
    pathParams: { jobId: 'The img_job_ id the image ingestion answered.' },
    responses: {
      200: { description: 'The preview.', mediaType: 'image/webp' },
      400: error('Headers.', END_USER_ERRORS),
      404: error('No preview of that job for this end user.', ['IMAGE.PREVIEW_NOT_FOUND']),
    },
  },
  {
    method: 'post', path: '/v1/ingest/document/upload', operationId: 'uploadDocument', summary: 'Upload a PDF: every page (or chunk of a long page) becomes a memory.', tag: 'ingestion', auth: true,
    headers: { endUser: 'required', timeZone: true, idempotencyKey: true },
    body: { schema: 'DocumentUpload', mediaType: 'multipart/form-data' },
    responses: {
      202: accepted,
      ...ADMISSION_ERRORS,
      400: error('The request cannot be read.', [...END_USER_ERRORS, 'REQUEST.INVALID_TIMEZONE', 'DOCUMENT.MISSING_FILE', 'DOCUMENT.INVALID_MULTIPART', 'METADATA.INVALID', 'METADATA.TOO_LARGE', ...IDEMPOTENCY_ERRORS[400]]),
      409: error('The first request with this Idempotency-Key is still being answered (Retry-After), or the end user was erased while this one was being accepted.', [...IDEMPOTENCY_ERRORS[409], 'REQUEST.END_USER_ERASED'], ['Retry-After']),
      413: error(`The PDF is over MEMORY_MAX_DOCUMENT_BYTES (default ${REQUEST_LIMITS.documentMaxBytes}).`, ['DOCUMENT.TOO_LARGE']),
      415: error('Not multipart/form-data, or the file is not a PDF.', ['REQUEST.UNSUPPORTED_MEDIA_TYPE', 'DOCUMENT.UNSUPPORTED_TYPE', 'DOCUMENT.NOT_PDF']),
      422: error('This Idempotency-Key was used for a different request.', IDEMPOTENCY_ERRORS[422]),
    },
  },
  {
    method: 'post', path: '/v1/search', operationId: 'searchMemories', summary: 'Search an end user\'s memories by text (automatic routing or a forced strategy) or by image.', tag: 'search', auth: true,
    headers: { endUser: 'required', timeZone: true },
    body: { schema: 'SearchRequest' },
    responses: {
      200: { description: 'The memories found, best first.', schema: 'SearchResponse' },
      400: error('The request cannot be read.', [...JSON_BODY_ERRORS[400], ...END_USER_ERRORS, 'REQUEST.INVALID_TIMEZONE', 'SEARCH.MISSING_QUERY', 'SEARCH.QUERY_TOO_LONG', 'SEARCH.UNKNOWN_STRATEGY', 'SEARCH.INVALID_LIMIT', 'SEARCH.INVALID_FIELD', 'FILTER.INVALID', 'FILTER.UNKNOWN_FIELD', 'IMAGE.MISSING_DATA', 'IMAGE.INVALID_BASE64', 'IMAGE.UNREADABLE']),
      413: error('Over a limit.', [...JSON_BODY_ERRORS[413], 'IMAGE.TOO_LARGE', 'IMAGE.TOO_MANY_PIXELS']),
      415: error('Not JSON, or not an image we accept.', [...JSON_BODY_ERRORS[415], 'IMAGE.UNSUPPORTED_FORMAT', 'IMAGE.UNREADABLE']),
      422: error('Reading the query image passed the time or memory one file may use (a decompression bomb, say).', ['IMAGE.TOO_COMPLEX']),
      501: error('Search by image is not wired in this process.', ['SEARCH.IMAGE_QUERY_UNAVAILABLE']),
    },
  },
  {
    method: 'post', path: '/v1/memories/search', operationId: 'searchMemoriesByMode', summary: 'Search with a named mode: factual, conceptual or hybrid.', tag: 'search', auth: true,
    headers: { endUser: 'required', timeZone: true },
    body: { schema: 'ModeSearchRequest' },
    responses: {
      200: { description: 'The memories found, best first.', schema: 'SearchResponse' },
      400: error('The request cannot be read.', [...JSON_BODY_ERRORS[400], ...END_USER_ERRORS, 'REQUEST.INVALID_TIMEZONE', 'SEARCH.MISSING_QUERY', 'SEARCH.QUERY_TOO_LONG', 'SEARCH.MISSING_MODE', 'SEARCH.UNKNOWN_MODE', 'SEARCH.INVALID_LIMIT', 'SEARCH.INVALID_FIELD', 'FILTER.INVALID', 'FILTER.UNKNOWN_FIELD']),
      413: error('Over a limit.', JSON_BODY_ERRORS[413]),
      415: error('Not JSON.', JSON_BODY_ERRORS[415]),
    },
  },
  {
    method: 'get', path: '/v1/memories', operationId: 'listMemories', summary: "The end user's memories, newest first, a page at a time.", tag: 'memories', auth: true,
    headers: { endUser: 'required' },
    query: {
      limit: { description: `1-${REQUEST_LIMITS.list.maxLimit}, default ${REQUEST_LIMITS.list.defaultLimit}.`, schema: { type: 'integer', minimum: 1, maximum: REQUEST_LIMITS.list.maxLimit } },
      cursor: { description: 'nextCursor of the previous page, unchanged.', schema: { type: 'string' } },
      memory_type: { description: `One memory type or up to ${REQUEST_LIMITS.list.maxMemoryTypes} separated by commas.`, schema: { type: 'string' } },
      created_after: { description: 'ISO 8601 or epoch milliseconds.', schema: { type: 'string' } },
      created_before: { description: 'ISO 8601 or epoch milliseconds.', schema: { type: 'string' } },
      event_after: { description: 'ISO 8601 or epoch milliseconds.', schema: { type: 'string' } },
      event_before: { description: 'ISO 8601 or epoch milliseconds.', schema: { type: 'string' } },
      job_id: { description: 'Only the memories this job made.', schema: { type: 'string', minLength: 1, maxLength: REQUEST_LIMITS.list.maxJobIdChars } },
    },
    responses: {
      200: { description: 'One page.', schema: 'MemoryPage' },
      400: error('A query parameter or header cannot be read.', [...END_USER_ERRORS, 'LIST.INVALID_LIMIT', 'LIST.INVALID_CURSOR', 'LIST.INVALID_FILTER', 'LIST.INVALID_PARAMETER', 'LIST.UNKNOWN_PARAMETER']),
    },
  },
  {
    method: 'get', path: '/v1/memories/{id}', operationId: 'getMemory', summary: 'One memory by id.', tag: 'memories', auth: true,
    headers: { endUser: 'required' }, pathParams: memoryId,
    responses: { 200: { description: 'The memory.', schema: 'Memory' }, 400: error('Headers.', END_USER_ERRORS), 404: error('No such memory for this end user.', ['MEMORY.NOT_FOUND']) },
  },
  {
    method: 'get', path: '/v1/memories/{id}/history', operationId: 'getMemoryHistory', summary: "A memory's versions, oldest first.", tag: 'memories', auth: true,
    headers: { endUser: 'required' }, pathParams: memoryId,
    responses: { 200: { description: 'Its versions.', schema: 'MemoryHistory' }, 400: error('Headers.', END_USER_ERRORS), 404: error('No such memory for this end user.', ['MEMORY.NOT_FOUND']) },
  },
  {
    method: 'patch', path: '/v1/memories/{id}', operationId: 'updateMemory', summary: 'Correct a text memory: a new version with the same id.', tag: 'memories', auth: true,
    headers: { endUser: 'required', timeZone: true, idempotencyKey: true }, pathParams: memoryId,
    body: { schema: 'UpdateRequest' },
    responses: {
      202: accepted,
      ...ADMISSION_ERRORS,
      400: error('The request cannot be read.', [...JSON_BODY_ERRORS[400], 'REQUEST.INVALID_FIELD', ...END_USER_ERRORS, 'REQUEST.INVALID_TIMEZONE', 'UPDATE.NOTHING_TO_CHANGE', 'UPDATE.UNKNOWN_FIELD', 'INGEST.MISSING_CONTENT', 'INGEST.INVALID_TIMESTAMP', 'METADATA.INVALID', 'METADATA.TOO_LARGE', ...IDEMPOTENCY_ERRORS[400]]),
      404: error('No such memory for this end user.', ['MEMORY.NOT_FOUND']),
      409: error('The memory is still being ingested, or the first request with this Idempotency-Key is still being answered.', ['MEMORY.NOT_READY', ...IDEMPOTENCY_ERRORS[409]], ['Retry-After']),
      413: error('Over a limit.', [...JSON_BODY_ERRORS[413], 'INGEST.TOO_LARGE']),
      415: error('Not JSON.', JSON_BODY_ERRORS[415]),
      422: error('An image or PDF-page memory, or an Idempotency-Key used for a different request.', ['MEMORY.NOT_EDITABLE', ...IDEMPOTENCY_ERRORS[422]]),
    },
  },
  {
    method: 'delete', path: '/v1/memories/{id}', operationId: 'deleteMemory', summary: 'Forget a memory.', tag: 'forgetting', auth: true,
    headers: { endUser: 'required', idempotencyKey: true }, pathParams: memoryId,
    responses: {
      202: accepted,
      ...ADMISSION_ERRORS,
      400: error('Headers.', [...END_USER_ERRORS, ...IDEMPOTENCY_ERRORS[400]]),
      404: error('The id cannot be one of this end user\'s memories.', ['MEMORY.NOT_FOUND']),
      409: error('The first request with this Idempotency-Key is still being answered (Retry-After), or the end user was erased while this one was being accepted.', [...IDEMPOTENCY_ERRORS[409], 'REQUEST.END_USER_ERASED'], ['Retry-After']),
      422: error('This Idempotency-Key was used for a different request.', IDEMPOTENCY_ERRORS[422]),
    },
  },
  {
    method: 'delete', path: '/v1/memories', operationId: 'deleteJobMemories', summary: 'Forget every memory a job made.', tag: 'forgetting', auth: true,
    headers: { endUser: 'required', idempotencyKey: true },
    query: { job_id: { description: 'The job whose memories to forget.', schema: { type: 'string', minLength: 1 }, required: true } },
    responses: {
      202: accepted,
      ...ADMISSION_ERRORS,
      400: error('No job_id, one that is not a job id of this end user, or headers.', [...END_USER_ERRORS, 'FORGET.MISSING_JOB_ID', 'FORGET.INVALID_JOB_ID', ...IDEMPOTENCY_ERRORS[400]]),
      409: error('The first request with this Idempotency-Key is still being answered (Retry-After), or the end user was erased while this one was being accepted.', [...IDEMPOTENCY_ERRORS[409], 'REQUEST.END_USER_ERASED'], ['Retry-After']),
      422: error('This Idempotency-Key was used for a different request.', IDEMPOTENCY_ERRORS[422]),
    },
  },
  {
    method: 'delete', path: '/v1/users/{endUserId}', operationId: 'eraseEndUser', summary: 'Erase an end user: every memory, blob and job of theirs.', tag: 'forgetting', auth: true,
    headers: { endUser: 'optional', idempotencyKey: true },
    pathParams: { endUserId: 'The end user to erase; x-end-user-id, when sent, must name the same one.' },
    responses: {
      202: accepted,
      ...ADMISSION_ERRORS,
      400: error('An end user id that cannot be one, or another one in x-end-user-id.', [...END_USER_ERRORS, 'FORGET.END_USER_MISMATCH', ...IDEMPOTENCY_ERRORS[400]]),
      409: error('The first request with this Idempotency-Key is still being answered (Retry-After), or the end user was erased while this one was being accepted.', [...IDEMPOTENCY_ERRORS[409], 'REQUEST.END_USER_ERASED'], ['Retry-After']),
      422: error('This Idempotency-Key was used for a different request.', IDEMPOTENCY_ERRORS[422]),
    },
  },
  {
    method: 'get', path: '/v1/jobs/{jobId}', operationId: 'getJob', summary: "A job's state; with waitMs, a long poll that answers once it is Completed or Failed.", tag: 'jobs', auth: true,
    headers: { endUser: 'optional' },
    pathParams: { jobId: 'The id an accepted request answered.' },
    query: { waitMs: { description: `Wait up to this many milliseconds (0-${REQUEST_LIMITS.jobWaitMaxMs}) for the job to settle.`, schema: { type: 'integer', minimum: 0, maximum: REQUEST_LIMITS.jobWaitMaxMs } } },
    responses: {
      200: { description: 'The job.', schema: 'Job', links: memoryLinks('$response.body#/memoryIds/0') },
      400: error('waitMs is not a whole number in range.', ['JOB.INVALID_WAIT']),
      404: error('No such job for this API key (and x-end-user-id, when sent).', ['JOB.NOT_FOUND']),
    },
  },
  {
    method: 'post', path: '/v1/webhooks', operationId: 'createWebhook', summary: 'Register a webhook endpoint for some events; the answer shows its signing secret once.', tag: 'webhooks', auth: true,
    body: { schema: 'WebhookRequest' },
    responses: {
      201: { description: 'Registered; keep the secret, it is not shown again.', schema: 'WebhookCreated', links: { webhook: { operationId: 'getWebhook', parameters: { webhookId: '$response.body#/id' } } } },
      400: error('A body, url or events to fix.', [...JSON_BODY_ERRORS[400], 'REQUEST.INVALID_FIELD', 'WEBHOOK.INVALID_URL', 'WEBHOOK.UNKNOWN_EVENT', 'WEBHOOK.PRIVATE_TARGET']),
      413: error('Body too large.', JSON_BODY_ERRORS[413]),
      415: error('Not JSON.', JSON_BODY_ERRORS[415]),
    },
  },
  {
    method: 'get', path: '/v1/webhooks', operationId: 'listWebhooks', summary: "The tenant's webhook endpoints (without secrets).", tag: 'webhooks', auth: true,
    responses: { 200: { description: 'The endpoints.', schema: 'WebhookList' } },
  },
  {
    method: 'get', path: '/v1/webhooks/{webhookId}', operationId: 'getWebhook', summary: 'One webhook endpoint (without its secret).', tag: 'webhooks', auth: true,
    pathParams: webhookId,
    responses: { 200: { description: 'The endpoint.', schema: 'Webhook' }, 404: error('No such webhook for this API key.', ['WEBHOOK.NOT_FOUND']) },
  },
  {
    method: 'delete', path: '/v1/webhooks/{webhookId}', operationId: 'deleteWebhook', summary: 'Delete a webhook endpoint and its queued deliveries.', tag: 'webhooks', auth: true,
    pathParams: webhookId,
    responses: { 204: { description: 'Deleted.' }, 404: error('No such webhook for this API key.', ['WEBHOOK.NOT_FOUND']) },
  },
  {
    method: 'post', path: '/v1/webhooks/{webhookId}/rotate-secret', operationId: 'rotateWebhookSecret', summary: 'A new signing secret, shown once; the old one keeps signing for 24 hours.', tag: 'webhooks', auth: true,
    pathParams: webhookId,
    responses: { 200: { description: 'The new secret.', schema: 'WebhookSecret' }, 404: error('No such webhook for this API key.', ['WEBHOOK.NOT_FOUND']) },
  },
  {
    method: 'get', path: '/v1/webhooks/{webhookId}/deliveries', operationId: 'listWebhookDeliveries', summary: "The endpoint's latest deliveries: state, attempts, last answer, next attempt.", tag: 'webhooks', auth: true,
    pathParams: webhookId,
    responses: { 200: { description: 'The deliveries, newest first.', schema: 'WebhookDeliveryList' }, 404: error('No such webhook for this API key.', ['WEBHOOK.NOT_FOUND']) },
  },
  {
    method: 'post', path: '/v1/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver', operationId: 'redeliverWebhookDelivery', summary: 'Send a delivery again, with another 24 hours of retries.', tag: 'webhooks', auth: true,
    pathParams: { ...webhookId, deliveryId: 'A delivery of this endpoint (its webhook-id header).' },
    responses: {
      202: { description: 'Queued again.', schema: 'WebhookDelivery' },
      404: error('No such webhook for this API key, or no such delivery of it.', ['WEBHOOK.NOT_FOUND', 'WEBHOOK.DELIVERY_NOT_FOUND']),
    },
  },
];
