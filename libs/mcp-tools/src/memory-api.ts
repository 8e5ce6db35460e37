import { RequestError } from '@memory/platform';

/** Who the tools act as, and where the service's HTTP API is. */
export interface MemoryApiTarget {
  /** e.g. http://127.0.0.1:8080, without a trailing slash. */
  baseUrl: string;
  apiKey: string;
  endUserId: string;
}

/** A service answer: its status and parsed JSON body (an error body is `{"error":{"code","message","details"}}`). */
export interface ApiAnswer {
  status: number;
  body: unknown;
}

export interface MemoryApi {
  request(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<ApiAnswer>;
  /** POST of a multipart form (the PDF upload). */
  upload(path: string, form: FormData): Promise<ApiAnswer>;
}

/**
 * The service's HTTP API as one tenant (API key) and one end user. The tools go through HTTP in both transports, so
 * the stdio server works against either mode and the /mcp route gets the same validation, idempotency and limits
 * as any client.
 */
export function memoryApi(target: MemoryApiTarget): MemoryApi {
  const headers = { authorization: `Bearer ${target.apiKey}`, 'x-end-user-id': target.endUserId };
  const send = async (path: string, init: RequestInit): Promise<ApiAnswer> => {
    const res = await fetch(target.baseUrl + path, init).catch((error: Error) => {
      throw new RequestError(503, 'SERVICE.UNREACHABLE', `the memory service at ${target.baseUrl} could not be reached (${error.cause instanceof Error ? error.cause.message : error.message}); retry later`);
    });
    const text = await res.text();
    return { status: res.status, body: text ? parseJson(text) : null };
  };
  return {
    request: (method, path, body) =>
      send(path, body === undefined
        ? { method, headers }
        : { method, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    upload: (path, form) => send(path, { method: 'POST', headers, body: form }),
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { error: { code: 'SERVICE.INVALID_ANSWER', message: `the service answered with something that is not JSON: ${text.slice(0, 200)}` } };
  }
}
