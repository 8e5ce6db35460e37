import type { components, operations } from './generated/openapi-types.js';

/**
 * Names for the request and response bodies of the service, all taken from src/generated/openapi-types.ts (written
 * by `npm run generate:sdk-types` from the service's OpenAPI document), so nothing here is typed twice.
 */
type Schemas = components['schemas'];

export type ErrorBody = Schemas['Error'];
export type Metadata = Schemas['Metadata'];
export type TextIngestRequest = Schemas['TextIngestRequest'];
export type ImageIngestRequest = Schemas['ImageIngestRequest'];
export type UpdateRequest = Schemas['UpdateRequest'];
export type SearchFilters = Schemas['SearchFilters'];
export type SearchRequest = Schemas['SearchRequest'];
export type ModeSearchRequest = Schemas['ModeSearchRequest'];
export type Accepted = Schemas['Accepted'];
export type Memory = Schemas['Memory'];
export type SearchHit = Schemas['SearchHit'];
export type SearchResponse = Schemas['SearchResponse'];
export type MemoryPage = Schemas['MemoryPage'];
export type MemoryHistory = Schemas['MemoryHistory'];
export type Job = Schemas['Job'];
export type JobStatus = Job['status'];
export type Liveness = Schemas['Liveness'];
export type Readiness = Schemas['Readiness'];
export type WebhookRequest = Schemas['WebhookRequest'];
export type Webhook = Schemas['Webhook'];
export type WebhookCreated = Schemas['WebhookCreated'];
export type WebhookList = Schemas['WebhookList'];
export type WebhookSecret = Schemas['WebhookSecret'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WebhookDeliveryList = Schemas['WebhookDeliveryList'];
export type WebhookEventType = WebhookRequest['events'][number];
/** A webhook delivery's body, as verifyWebhook resolves with it: `{type, timestamp, data}`, ids and states only. */
export type WebhookEvent = Schemas['WebhookEvent'];

/**
 * GET /v1/memories's query; memory_type may also be a list (sent comma-separated), and `metadata` keeps only memories
 * whose metadata has each of these values (sent as metadata.<key>=).
 */
export type ListMemoriesParams = Omit<NonNullable<operations['listMemories']['parameters']['query']>, 'memory_type'> & {
  memory_type?: string | string[];
  metadata?: Record<string, string | number | boolean>;
};

/** The operationIds of the document: MemoryClient has one method of each name. */
export type OperationId = keyof operations;

export type { components, operations, paths } from './generated/openapi-types.js';
