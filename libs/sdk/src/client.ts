import { imageData, pdfBlob, type BinarySource } from './binary.js';
import { JobFailedError, JobTimeoutError } from './errors.js';
import { sleep, Transport, type CallOptions, type ClientOptions } from './http.js';
import type {
  Accepted, ImageIngestRequest, Job, ListMemoriesParams, Liveness, Memory, MemoryHistory, MemoryPage, Metadata, ModeSearchRequest,
  OperationId, Readiness, SearchRequest, SearchResponse, TextIngestRequest, UpdateRequest, Webhook, WebhookCreated, WebhookDelivery,
  WebhookDeliveryList, WebhookList, WebhookRequest, WebhookSecret,
} from './types.js';

/** addImageMemory's body: imageData may be the image's bytes or a Blob instead of base64. */
export type ImageMemoryInput = Omit<ImageIngestRequest, 'imageData'> & { imageData: string | BinarySource };

/** searchMemories by image: queryImage may be bytes or a Blob instead of base64. */
export type SearchInput = SearchRequest | (Omit<Extract<SearchRequest, { queryImage: string }>, 'queryImage'> & { queryImage: BinarySource });

export interface DocumentUploadInput {
  /** The PDF: bytes or a Blob (in Node, `pdfFromFile` and `pdfFromStream` of @memory/sdk/node give one). */
  file: BinarySource;
  /** The file name the service keeps it under (storagePath); document.pdf when absent. */
  filename?: string;
  metadata?: Metadata;
}

export interface WaitForJobOptions {
  /** Give up (JobTimeoutError) after this many ms. Default 120,000. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The job's end user, when it is not the client's: e.g. the erasure of another end user (eraseEndUser). */
  endUserId?: string;
}

/** The longest wait GET /v1/jobs/{id}?waitMs= accepts. */
const JOB_WAIT_MAX_MS = 30_000;

const segment = (value: string) => encodeURIComponent(value);

/**
 * The memory service's HTTP API: one method per route, named by its operationId in GET /openapi.json (the compiler
 * checks there is one for each), plus waitForJob and listAllMemories. Every method rejects with a MemoryError
 * subclass carrying the service's stable code.
 */
export class MemoryClient implements Record<OperationId, (...args: never[]) => Promise<unknown>> {
  private readonly transport: Transport;

  constructor(readonly options: ClientOptions) {
    this.transport = new Transport(options);
  }

  /** The same client acting for another end user. */
  withEndUser(endUserId: string): MemoryClient {
    return new MemoryClient({ ...this.options, endUserId });
  }

  // Ingestion

  /** Ingest a text memory (POST /v1/memory): a string, or the whole request body. 202: follow the job with waitForJob. */
  addMemory(input: string | TextIngestRequest, options?: CallOptions): Promise<Accepted> {
    const json: TextIngestRequest = typeof input === 'string' ? { source: { type: 'text', content: input } } : input;
    return this.transport.call({ method: 'POST', path: '/v1/memory', json, endUser: 'required', timeZone: true, retry: 'key', answer: 'json' }, options);
  }

  /** Ingest an image memory (POST /v1/memory/image); bytes and Blobs are base64-encoded here. */
  async addImageMemory(input: ImageMemoryInput, options?: CallOptions): Promise<Accepted> {
    const json: ImageIngestRequest = { ...input, imageData: await imageData(input.imageData) };
    return this.transport.call({ method: 'POST', path: '/v1/memory/image', json, endUser: 'required', timeZone: true, retry: 'key', answer: 'json' }, options);
  }

  /** An image memory's preview (GET /v1/memory/image/{jobId}/preview), a WebP Blob. */
  getImagePreview(jobId: string, options?: CallOptions): Promise<Blob> {
    return this.transport.call({ method: 'GET', path: `/v1/memory/image/${segment(jobId)}/preview`, endUser: 'required', retry: 'safe', answer: 'blob' }, options);
  }

  /** Upload a PDF (POST /v1/ingest/document/upload, multipart): every page becomes a memory. */
  uploadDocument(input: DocumentUploadInput, options?: CallOptions): Promise<Accepted> {
    const file = pdfBlob(input.file);
    const form = () => {
      const made = new FormData();
      if (input.metadata) made.append('metadata', JSON.stringify(input.metadata));
      made.append('file', file, input.filename ?? 'document.pdf');
      return made;
    };
    return this.transport.call({ method: 'POST', path: '/v1/ingest/document/upload', form, endUser: 'required', timeZone: true, retry: 'key', answer: 'json' }, options);
  }

  // Search

  /** Search by text (automatic routing, or a forced strategy) or by image (POST /v1/search). A string is a text query. */
  async searchMemories(input: string | SearchInput, options?: CallOptions): Promise<SearchResponse> {
    const json: SearchRequest = typeof input === 'string' ? { query: input }
      : 'queryImage' in input && typeof input.queryImage !== 'string' ? { ...input, queryImage: await imageData(input.queryImage) }
        : input as SearchRequest;
    return this.transport.call({ method: 'POST', path: '/v1/search', json, endUser: 'required', timeZone: true, retry: 'safe', answer: 'json' }, options);
  }

  /** Search with a named mode: factual, conceptual or hybrid (POST /v1/memories/search). */
  searchMemoriesByMode(input: ModeSearchRequest, options?: CallOptions): Promise<SearchResponse> {
    return this.transport.call({ method: 'POST', path: '/v1/memories/search', json: input, endUser: 'required', timeZone: true, retry: 'safe', answer: 'json' }, options);
  }

  // Memories

  /** One page of the end user's memories, newest first (GET /v1/memories); pass nextCursor as cursor for the next. */
  listMemories(params: ListMemoriesParams = {}, options?: CallOptions): Promise<MemoryPage> {
    return this.transport.call({ method: 'GET', path: '/v1/memories', query: listQuery(params), endUser: 'required', retry: 'safe', answer: 'json' }, options);
  }

  /** Every memory matching params, page after page. */
  async *listAllMemories(params: Omit<ListMemoriesParams, 'cursor'> = {}, options?: CallOptions): AsyncGenerator<Memory> {
    let cursor: string | null = null;
    do {
      const page: MemoryPage = await this.listMemories({ ...params, ...(cursor ? { cursor } : {}) }, options);
      yield* page.data;
      cursor = page.nextCursor;
    } while (cursor);
  }

  /** One memory (GET /v1/memories/{id}). */
  getMemory(id: string, options?: CallOptions): Promise<Memory> {
    return this.transport.call({ method: 'GET', path: `/v1/memories/${segment(id)}`, endUser: 'required', retry: 'safe', answer: 'json' }, options);
  }

  /** A memory's versions, oldest first (GET /v1/memories/{id}/history). */
  getMemoryHistory(id: string, options?: CallOptions): Promise<MemoryHistory> {
    return this.transport.call({ method: 'GET', path: `/v1/memories/${segment(id)}/history`, endUser: 'required', retry: 'safe', answer: 'json' }, options);
  }

  /** Correct a text memory: a new version with the same id (PATCH /v1/memories/{id}). */
  updateMemory(id: string, change: UpdateRequest, options?: CallOptions): Promise<Accepted> {
    return this.transport.call({ method: 'PATCH', path: `/v1/memories/${segment(id)}`, json: change, endUser: 'required', timeZone: true, retry: 'key', answer: 'json' }, options);
  }

  /** Forget a memory (DELETE /v1/memories/{id}). */
  deleteMemory(id: string, options?: CallOptions): Promise<Accepted> {
    return this.transport.call({ method: 'DELETE', path: `/v1/memories/${segment(id)}`, endUser: 'required', retry: 'key', answer: 'json' }, options);
  }

  /** Forget every memory a job made (DELETE /v1/memories?job_id=). */
  deleteJobMemories(jobId: string, options?: CallOptions): Promise<Accepted> {
    return this.transport.call({ method: 'DELETE', path: '/v1/memories', query: new URLSearchParams({ job_id: jobId }), endUser: 'required', retry: 'key', answer: 'json' }, options);
  }

  /**
   * Erase an end user: every memory, blob and job of theirs (DELETE /v1/users/{endUserId}). Sent as that end user
   * (x-end-user-id must name the erased one), whatever the client's own. The job is theirs too: follow it with
   * `waitForJob(jobId, { endUserId })`.
   */
  eraseEndUser(endUserId: string, options?: CallOptions): Promise<Accepted> {
    return this.transport.call({ method: 'DELETE', path: `/v1/users/${segment(endUserId)}`, endUser: 'optional', retry: 'key', answer: 'json' }, { ...options, endUserId });
  }

  // Jobs

  /** A job's state (GET /v1/jobs/{jobId}); with waitMs (at most 30,000) the service answers once it is Completed or Failed. */
  getJob(jobId: string, params: { waitMs?: number } = {}, options?: CallOptions): Promise<Job> {
    const query = params.waitMs !== undefined ? new URLSearchParams({ waitMs: String(params.waitMs) }) : undefined;
    return this.transport.call({
      method: 'GET', path: `/v1/jobs/${segment(jobId)}`, ...(query ? { query } : {}), endUser: 'optional', retry: 'safe', answer: 'json', extraTimeoutMs: params.waitMs ?? 0,
    }, options);
  }

  /**
   * Waits for a job with the service's long poll: resolves with the job once Completed, rejects with JobFailedError
   * (the job's error code and reason) once Failed, or with JobTimeoutError when timeoutMs runs out first.
   */
  async waitForJob(jobId: string, options: WaitForJobOptions = {}): Promise<Job> {
    const timeoutMs = options.timeoutMs ?? 120_000;
    const deadline = Date.now() + timeoutMs;
    const call: CallOptions = { ...(options.signal ? { signal: options.signal } : {}), ...(options.endUserId ? { endUserId: options.endUserId } : {}) };
    for (;;) {
      const waitMs = Math.max(0, Math.min(JOB_WAIT_MAX_MS, deadline - Date.now()));
      const asked = Date.now();
      const job = await this.getJob(jobId, { waitMs }, call);
      if (job.status === 'Completed') return job;
      if (job.status === 'Failed') throw new JobFailedError(job);
      if (Date.now() >= deadline) throw new JobTimeoutError(job, timeoutMs);
      // A long poll that came back before its wait without an end (a proxy's limit, a restart): no busy loop.
      if (Date.now() - asked < waitMs) await sleep(Math.min(200, deadline - Date.now()), options.signal);
    }
  }

  // Webhooks

  /** Register a webhook endpoint; the answer's secret is shown once (POST /v1/webhooks). */
  createWebhook(input: WebhookRequest, options?: CallOptions): Promise<WebhookCreated> {
    return this.transport.call({ method: 'POST', path: '/v1/webhooks', json: input, endUser: 'none', retry: 'unsafe', answer: 'json' }, options);
  }

  /** The tenant's webhook endpoints, without secrets (GET /v1/webhooks). */
  listWebhooks(options?: CallOptions): Promise<WebhookList> {
    return this.transport.call({ method: 'GET', path: '/v1/webhooks', endUser: 'none', retry: 'safe', answer: 'json' }, options);
  }

  /** One webhook endpoint (GET /v1/webhooks/{webhookId}). */
  getWebhook(webhookId: string, options?: CallOptions): Promise<Webhook> {
    return this.transport.call({ method: 'GET', path: `/v1/webhooks/${segment(webhookId)}`, endUser: 'none', retry: 'safe', answer: 'json' }, options);
  }

  /**
   * Delete a webhook endpoint and its queued deliveries (DELETE /v1/webhooks/{webhookId}). A retry answered 404
   * WEBHOOK.NOT_FOUND resolves: the attempt whose answer was lost deleted it.
   */
  deleteWebhook(webhookId: string, options?: CallOptions): Promise<void> {
    return this.transport.call({
      method: 'DELETE', path: `/v1/webhooks/${segment(webhookId)}`, endUser: 'none', retry: 'safe', goneOnRetry: 'WEBHOOK.NOT_FOUND', answer: 'none',
    }, options);
  }

  /** A new signing secret, shown once; the old one keeps signing for 24 hours (POST /v1/webhooks/{webhookId}/rotate-secret). */
  rotateWebhookSecret(webhookId: string, options?: CallOptions): Promise<WebhookSecret> {
    return this.transport.call({ method: 'POST', path: `/v1/webhooks/${segment(webhookId)}/rotate-secret`, endUser: 'none', retry: 'unsafe', answer: 'json' }, options);
  }

  /** The endpoint's latest deliveries, newest first (GET /v1/webhooks/{webhookId}/deliveries). */
  listWebhookDeliveries(webhookId: string, options?: CallOptions): Promise<WebhookDeliveryList> {
    return this.transport.call({ method: 'GET', path: `/v1/webhooks/${segment(webhookId)}/deliveries`, endUser: 'none', retry: 'safe', answer: 'json' }, options);
  }

  /** Send a delivery again (POST /v1/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver). */
  redeliverWebhookDelivery(webhookId: string, deliveryId: string, options?: CallOptions): Promise<WebhookDelivery> {
    return this.transport.call({
      method: 'POST', path: `/v1/webhooks/${segment(webhookId)}/deliveries/${segment(deliveryId)}/redeliver`, endUser: 'none', retry: 'unsafe', answer: 'json',
    }, options);
  }

  // Health and reference

  /** Liveness (GET /health/live). */
  getLiveness(options?: CallOptions): Promise<Liveness> {
    return this.transport.call({ method: 'GET', path: '/health/live', endUser: 'none', retry: 'safe', answer: 'json' }, options);
  }

  /** Readiness (GET /health/ready); a 503 while starting rejects with ServiceUnavailableError after the retries. */
  getReadiness(options?: CallOptions): Promise<Readiness> {
    return this.transport.call({ method: 'GET', path: '/health/ready', endUser: 'none', retry: 'safe', answer: 'json' }, options);
  }

  /** The service's OpenAPI 3.1 document (GET /openapi.json). */
  getOpenApiDocument(options?: CallOptions): Promise<Record<string, unknown>> {
    return this.transport.call({ method: 'GET', path: '/openapi.json', endUser: 'none', retry: 'safe', answer: 'json' }, options);
  }

  /** The readable reference page of the document, as HTML (GET /docs). */
  getReferencePage(options?: CallOptions): Promise<string> {
    return this.transport.call({ method: 'GET', path: '/docs', endUser: 'none', retry: 'safe', answer: 'text' }, options);
  }

  /** This process's Prometheus metrics, in the text exposition format (GET /metrics; for operators' own checks). */
  getMetrics(options?: CallOptions): Promise<string> {
    return this.transport.call({ method: 'GET', path: '/metrics', endUser: 'none', retry: 'safe', answer: 'text' }, options);
  }
}

function listQuery(params: ListMemoriesParams): URLSearchParams {
  const query = new URLSearchParams();
  const { memory_type: types, metadata, ...plain } = params;
  for (const [name, value] of Object.entries(plain)) if (value !== undefined) query.set(name, String(value));
  if (types !== undefined) query.set('memory_type', Array.isArray(types) ? types.join(',') : types);
  for (const [key, value] of Object.entries(metadata ?? {})) query.set(`metadata.${key}`, String(value));
  return query;
}
