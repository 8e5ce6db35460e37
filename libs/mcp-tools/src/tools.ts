import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { MemoryError, MemoryTimeoutError, type MemoryClient, type SearchFilters, type UpdateRequest } from '@memory/sdk';
import { errorCode, errorMessage, RequestError } from '@memory/platform';
import { allowedFile } from './file-root.js';

export interface MemoryToolsOptions {
  api: MemoryClient;
  /** Directory under which add_memory may read images and PDFs (MEMORY_MCP_FILE_ROOT); unset, no file is read. */
  fileRoot?: string;
  /** The longest get_job wait the service accepts (REQUEST_LIMITS.jobWaitMaxMs). */
  jobWaitMaxMs?: number;
}

/** The search strategies a caller may force (libs/search STRATEGY_NAMES); left out, the service routes the query. */
const STRATEGIES = ['direct_lookup', 'centroid_aware', 'entity_anchor', 'temporal_range'] as const;

const metadataSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
  .describe('Flat key-value labels stored with the memory and returned with it (keys of A-Z a-z 0-9 _ -, values string, number or boolean; at most 32 keys)');
const instantSchema = z.string().describe('ISO 8601 date or date-time (UTC without an offset), or epoch milliseconds as digits');

/**
 * The memory service's MCP server: one definition of every tool, served over stdio by apps/mcp and over Streamable
 * HTTP by the service's /mcp route. Each tool is one HTTP call (get_job's wait is the service's long poll); a
 * refusal comes back as a tool error carrying the service's status, stable code and message.
 */
export function createMemoryMcpServer(options: MemoryToolsOptions): McpServer {
  const { api } = options;
  const server = new McpServer({ name: 'memory-service', version: '0.1.0' });

  server.registerTool('add_memory', {
    title: 'Add a memory',
    description: 'Stores something worth remembering about the current end user: a text, or an image or PDF read from a file on '
      + 'the server (filePath, only under the directory the operator allows). Use it when the user shares a fact, preference, '
      + 'event or document to recall later. Processing is asynchronous: it returns {"status":"Accepted","jobId"}; call get_job '
      + 'with that jobId and waitMs to know when the memory is searchable and to get its memory ids. A PDF becomes one memory per page. '
      + 'When it fails without a refusal of the request (a timeout 504, a 503, 409 IDEMPOTENCY.IN_PROGRESS) the memory may have been '
      + 'stored all the same: call add_memory again with the same arguments and the idempotencyKey the error names, and the service '
      + 'answers with the first job instead of storing the memory twice.',
    inputSchema: {
      text: z.string().optional().describe('The memory as text (at most 32,000 characters); relative dates ("yesterday") are resolved'),
      filePath: z.string().optional().describe('An image (JPEG, PNG, WebP, GIF, TIFF, AVIF) or a PDF, absolute or relative to the allowed directory; instead of text'),
      userContext: z.string().optional().describe('Context for a text or an image, e.g. why it matters (at most 4,000 characters); not for PDFs'),
      timestamp: z.string().optional().describe('For text: when it was written (ISO 8601), to backfill old memories; relative dates resolve against it'),
      metadata: metadataSchema.optional(),
      idempotencyKey: z.string().optional().describe('Only to retry a failed add_memory: the idempotencyKey its error named'),
    },
  }, (input) => answered(async () => {
    const call = input.idempotencyKey !== undefined ? { idempotencyKey: input.idempotencyKey } : undefined;
    if ((input.text === undefined) === (input.filePath === undefined)) throw new RequestError(400, 'MCP.INVALID_INPUT', 'send exactly one of text or filePath');
    if (input.text !== undefined) {
      return api.addMemory({
        source: { type: 'text', content: input.text, ...(input.timestamp ? { timestamp: input.timestamp } : {}) },
        ...(input.userContext !== undefined ? { userContext: input.userContext } : {}),
        ...(input.metadata ? { metadata: input.metadata } : {}),
      }, call);
    }
    if (input.timestamp !== undefined) throw new RequestError(400, 'MCP.INVALID_INPUT', 'timestamp applies to text only; an image takes its time from its EXIF data');
    const path = await allowedFile(options.fileRoot, input.filePath!);
    const bytes = await readFile(path);
    if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') {
      if (input.userContext !== undefined) throw new RequestError(400, 'MCP.INVALID_INPUT', 'userContext applies to text and images; a PDF takes metadata only');
      return api.uploadDocument({ file: bytes, filename: basename(path), ...(input.metadata ? { metadata: input.metadata } : {}) }, call);
    }
    // Anything else goes to the image route, which decides whether it is an image the service reads (415 otherwise).
    return api.addImageMemory({
      imageData: bytes,
      ...(input.userContext !== undefined ? { userContext: input.userContext } : {}),
      ...(input.metadata ? { metadata: input.metadata } : {}),
    }, call);
  }, { retriesWithKey: true }));

  server.registerTool('search_memories', {
    title: 'Search memories',
    description: 'Finds the current end user\'s memories relevant to a question or topic, best first. Use it before answering '
      + 'anything that may depend on what the user said, did or stored earlier. Returns {"data":[{"id","finalScore","payload":'
      + '{"content","memory_type","created_at","event_times","themes","entities","metadata",...}}]}; an id can be passed to '
      + 'get_memory, update_memory or delete_memory.',
    inputSchema: {
      query: z.string().min(1).describe('What to look for, in natural language (at most 2,000 characters); dates like "last week" are understood'),
      strategy: z.enum(STRATEGIES).optional().describe('Force one strategy: direct_lookup (exact words, codes, names), centroid_aware (themes), entity_anchor (people, places, things), temporal_range (a period). Leave out to let the service choose'),
      limit: z.number().int().min(1).max(100).optional().describe('How many results (default 5)'),
      explain: z.boolean().optional().describe('Add to each result how each strategy and reranker scored it'),
      filters: z.record(z.string(), z.unknown()).optional().describe('Only memories passing this filter: {"memory_type": "fact" | [...], "created_after", "created_before", '
        + '"event_after", "event_before" (ISO 8601 or epoch ms), "job_id", "metadata": {"key": value | {"in": [...]}}, "any": [filters], "not": filter}; every field must hold'),
    },
  }, (input) => answered(() => api.searchMemories({
    query: input.query,
    ...(input.strategy ? { strategy: input.strategy } : {}),
    options: { ...(input.limit !== undefined ? { limit: input.limit } : {}), ...(input.explain !== undefined ? { explain: input.explain } : {}) },
    // The service validates the filter and answers FILTER.* for a wrong one.
    ...(input.filters ? { filters: input.filters as SearchFilters } : {}),
  })));

  server.registerTool('get_memory', {
    title: 'Get a memory',
    description: 'Reads one memory of the current end user by its id (from search_memories, list_memories or a completed job\'s memoryIds). '
      + 'Returns {"id","payload":{"content","memory_type","created_at","version","metadata",...}}; MEMORY.NOT_FOUND when there is no such memory.',
    inputSchema: { id: z.string().min(1).describe('The memory id, e.g. mem_job_1732345678901_alice_0') },
  }, (input) => answered(() => api.getMemory(input.id)));

  server.registerTool('list_memories', {
    title: 'List memories',
    description: 'Lists the current end user\'s memories newest first, one page at a time, optionally filtered. Use it to browse or '
      + 'review what is stored rather than to answer a question (use search_memories for that). Returns {"data":[{"id","payload"}],'
      + '"nextCursor"}; pass nextCursor back as cursor for the next page (null on the last page).',
    inputSchema: {
      limit: z.number().int().min(1).max(100).optional().describe('Page size (default 20)'),
      cursor: z.string().optional().describe('The previous page\'s nextCursor, unchanged'),
      memory_type: z.array(z.string()).optional().describe('Only these types, e.g. ["fact","experience","image","document_page"]'),
      created_after: instantSchema.optional(),
      created_before: instantSchema.optional(),
      event_after: instantSchema.optional().describe('Memories about events overlapping [event_after, event_before)'),
      event_before: instantSchema.optional(),
      job_id: z.string().optional().describe('Only the memories one job made (e.g. the pages of one PDF)'),
      metadata: metadataSchema.optional().describe('Only memories whose metadata has each of these values'),
    },
  }, ({ memory_type: types, ...rest }) => answered(() => api.listMemories({ ...rest, ...(types?.length ? { memory_type: types } : {}) })));

  server.registerTool('update_memory', {
    title: 'Correct a memory',
    description: 'Corrects a text memory of the current end user, keeping its id: new content, context or metadata (what is left out '
      + 'is kept). Use it when the user says something stored is wrong or has changed. Asynchronous like add_memory: returns '
      + '{"status":"Accepted","jobId"}; get_job tells when the new version is searchable. Images and PDF pages cannot be '
      + 'corrected (MEMORY.NOT_EDITABLE: delete and add again); MEMORY.NOT_READY means the memory is still being processed: retry shortly.',
    inputSchema: {
      id: z.string().min(1).describe('The memory id'),
      content: z.string().optional().describe('The corrected text'),
      userContext: z.string().nullable().optional().describe('New context; null clears it'),
      metadata: metadataSchema.nullable().optional().describe('Replaces the memory\'s metadata whole; null clears it'),
      timestamp: z.string().optional().describe('Moves the memory\'s reference time (ISO 8601)'),
    },
  }, ({ id, ...change }) => answered(() => api.updateMemory(id, change as UpdateRequest)));

  server.registerTool('delete_memory', {
    title: 'Delete a memory',
    description: 'Forgets one memory of the current end user for good, in every store. Use it when the user asks to forget '
      + 'something or it must no longer be used. Returns {"status":"Accepted","jobId"}; once get_job shows Completed, its '
      + 'receipt says what was removed where. Deleting again is harmless.',
    inputSchema: { id: z.string().min(1).describe('The memory id') },
  }, (input) => answered(() => api.deleteMemory(input.id)));

  const jobWaitMaxMs = options.jobWaitMaxMs ?? 30_000;
  server.registerTool('get_job', {
    title: 'Follow a job',
    description: 'The state of a job started by add_memory, update_memory or delete_memory: status Accepted, Processing (with its '
      + 'stage), Completed (with memoryIds, and a receipt for a delete) or Failed (with error.code and reason). With waitMs it '
      + 'answers as soon as the job is Completed or Failed, or with its current state when the wait ends: use it to wait until '
      + 'a new memory can be found by search_memories.',
    inputSchema: {
      jobId: z.string().min(1).describe('The jobId an earlier tool returned'),
      waitMs: z.number().int().min(0).max(jobWaitMaxMs).optional().describe(`How long to wait for the job to end, in milliseconds (0-${jobWaitMaxMs})`),
    },
  }, (input) => answered(() => api.getJob(input.jobId, input.waitMs ? { waitMs: input.waitMs } : {})));

  return server;
}

/**
 * The service's answer as a tool result: a 2xx as its JSON body; an error answer (the SDK's typed error, after its
 * retries), a refusal of this layer, an unreachable service or a file that cannot be read as a tool error (isError)
 * with the status and stable code, so the agent reads why instead of the protocol failing. A tool that takes an
 * idempotencyKey also hands back the key its failed call sent, the one to retry with.
 */
async function answered(call: () => Promise<unknown>, options: { retriesWithKey?: boolean } = {}): Promise<CallToolResult> {
  try {
    return { content: [{ type: 'text', text: JSON.stringify(await call()) }] };
  } catch (error) {
    const text = JSON.stringify(error instanceof MemoryError
      ? {
        status: error.status ?? (error instanceof MemoryTimeoutError ? 504 : 503),
        error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) },
        ...(options.retriesWithKey && error.idempotencyKey !== null ? { idempotencyKey: error.idempotencyKey } : {}),
      }
      : { status: error instanceof RequestError ? error.status : 500, error: { code: errorCode(error), message: errorMessage(error) } });
    return { content: [{ type: 'text', text }], isError: true };
  }
}
