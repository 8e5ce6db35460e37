import type { IncomingMessage, ServerResponse } from 'node:http';
import { serverTimingHeader, StepTimings, timeStep, withStepTimings, type Logger } from '@memory/platform';
import { authenticate, type ApiKeyRegistry } from './auth.js';
import { AdmissionRefused, type Admission } from './admission.js';
import { errorResponse, identified } from './error-handler.js';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from './idempotency.js';
import { REQUEST_LIMITS } from './limits.js';
import { ingestText, type TextIngestDeps } from './text-ingest.js';

export interface TextIngestFastPathDeps extends TextIngestDeps {
  apiKeys: ApiKeyRegistry;
  logger: Logger;
  admission?: Admission;
}

/** A body-parser-shaped error, so errorResponse maps it exactly as it maps Express's. */
const parserError = (type: 'entity.too.large' | 'entity.parse.failed') => Object.assign(new Error(type), { type });

/** The one route the fast path answers, outside Express's router: the OpenAPI route check reads it from here. */
export const TEXT_INGEST_FAST_PATH = { method: 'POST', path: '/v1/memory' } as const;

/**
 * POST /v1/memory on plain node:http, in front of the Express app: the route a high-throughput ingestion pipeline
 * calls in a loop, where Express's router, middleware chain and body parser cost more than the work itself (the
 * README's Performance section has the figures).
 *
 * It takes only the plain case (exact path, application/json in UTF-8, no content encoding) and answers it with the
 * same checks in the same order as the Express route: key, content type, body size and JSON, then ingestText (end
 * user, time zone, fields, Idempotency-Key, the accept), the function the Express route calls too; errors go through
 * errorResponse, so codes and bodies are the same. Everything else (another path, a gzip body, a Latin-1 charset, a
 * missing content type) falls through to Express, which answers it as before.
 * Returns whether it took the request.
 */
export function handleTextIngestFast(req: IncomingMessage, res: ServerResponse, deps: TextIngestFastPathDeps): boolean {
  if (req.method !== TEXT_INGEST_FAST_PATH.method || req.url !== TEXT_INGEST_FAST_PATH.path || !plainJson(req)) return false;
  const timings = new StepTimings();
  void withStepTimings(timings, () => respond(req, res, deps, timings));
  return true;
}

function plainJson(req: IncomingMessage): boolean {
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return false;
  const type = req.headers['content-type'];
  if (!type) return false;
  const [mediaType, ...parameters] = type.split(';').map((part) => part.trim().toLowerCase());
  if (mediaType !== 'application/json') return false;
  return parameters.every((parameter) => !parameter.startsWith('charset=') || parameter === 'charset=utf-8' || parameter === 'charset="utf-8"');
}

/** Answers one accept; a success says in Server-Timing where its time went (read, encode, produce, job record). */
async function respond(req: IncomingMessage, res: ServerResponse, deps: TextIngestFastPathDeps, timings: StepTimings): Promise<void> {
  // The admission's RateLimit-* headers go on every answer after it, as the Express routes' do.
  let admitted: Awaited<ReturnType<Admission['admit']>> | undefined;
  try {
    const tenantId = authenticate(deps.apiKeys, req.headers.authorization);
    admitted = await deps.admission?.admit(tenantId);
    const body = await timeStep('read', () => readJson(req, REQUEST_LIMITS.jsonBodyBytes));
    const headers = { endUserId: header(req, 'x-end-user-id'), timeZone: header(req, 'x-end-user-timezone'), idempotencyKey: header(req, IDEMPOTENCY_KEY_HEADER) };
    const outcome = await ingestText(deps, tenantId, headers, body);
    const serverTiming = serverTimingHeader([...timings.list(), { step: 'accept', count: 1, ms: timings.elapsed() }]);
    send(res, outcome.status, outcome.body, { ...admitted?.headers, ...(outcome.replayed ? { [IDEMPOTENT_REPLAYED_HEADER]: 'true' } : {}), 'server-timing': serverTiming });
  } catch (error) {
    const { status, body, headers } = errorResponse(error, deps.logger);
    send(res, status, identified(res, body), { ...(error instanceof AdmissionRefused ? error.headers : admitted?.headers), ...headers });
    // What is left of a refused body is read and dropped, so the connection stays usable for the next request.
    if (!req.complete) req.resume();
  } finally {
    admitted?.release();
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * The body as JSON, as body-parser's json() reads it: none without a length or transfer encoding, {} for an empty
 * one, at most `limit` bytes, an object or array at the top.
 */
function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  if (req.headers['transfer-encoding'] === undefined && req.headers['content-length'] === undefined) return Promise.resolve(undefined);
  const declared = Number(req.headers['content-length']);
  if (declared > limit) return Promise.reject(parserError('entity.too.large'));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const fail = (error: Error) => {
      req.off('data', onData);
      req.off('end', onEnd);
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return fail(parserError('entity.too.large'));
      chunks.push(chunk);
    };
    const onEnd = () => {
      const text = Buffer.concat(chunks, size).toString('utf8');
      if (text.length === 0) return resolve({});
      const first = text.trimStart()[0];
      if (first !== '{' && first !== '[') return fail(parserError('entity.parse.failed'));
      try {
        resolve(JSON.parse(text));
      } catch {
        fail(parserError('entity.parse.failed'));
      }
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.once('error', fail);
  });
}

function send(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>): void {
  if (res.headersSent || res.destroyed) return; // the client went away (the job, if accepted, still runs)
  const json = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json), ...headers });
  res.end(json);
}
