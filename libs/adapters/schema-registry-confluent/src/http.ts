import { MemoryServiceError } from '@memory/platform';
import { mapRegistryResponse, mapTransportError } from './error-map.js';
import type { ConfluentSchemaRegistrySettings } from './options.js';

const CONTENT_TYPE = 'application/vnd.schemaregistry.v1+json';

/**
 * JSON over the Confluent REST API with our errors. `close()` aborts what is in flight, so a service shutting down
 * does not wait out a slow registry.
 */
export class RegistryHttp {
  private readonly closing = new AbortController();

  constructor(private readonly settings: ConfluentSchemaRegistrySettings) {}

  async request<T>(method: 'GET' | 'POST' | 'PUT', path: string, what: string, body?: unknown): Promise<T> {
    if (this.closing.signal.aborted) throw closed();
    const headers: Record<string, string> = { accept: `${CONTENT_TYPE}, application/json` };
    if (body !== undefined) headers['content-type'] = CONTENT_TYPE;
    if (this.settings.authorization) headers['authorization'] = this.settings.authorization;

    let response: Response;
    let text: string;
    try {
      response = await fetch(`${this.settings.baseUrl}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.any([this.closing.signal, AbortSignal.timeout(this.settings.requestTimeoutMs)]),
      });
      text = await response.text();
    } catch (error) {
      if (this.closing.signal.aborted) throw closed();
      throw mapTransportError(error, what);
    }

    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (!response.ok) throw mapRegistryResponse({ status: response.status, body: json }, what);
    if (json === undefined) {
      throw new MemoryServiceError('REGISTRY.BAD_RESPONSE', `${what}: HTTP ${response.status} without a JSON body; is the registry URL right?`, {
        details: { status: response.status },
      });
    }
    return json as T;
  }

  close(): void {
    this.closing.abort();
  }
}

function closed(): MemoryServiceError {
  return new MemoryServiceError('REGISTRY.CLOSED', 'the schema registry client is closed');
}
