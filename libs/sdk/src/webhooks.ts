import { base64Decode } from './binary.js';
import { WebhookVerificationError } from './errors.js';
import type { WebhookEvent } from './types.js';

/** Request headers as fetch (Headers), Express or node:http (IncomingHttpHeaders) hand them over. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookInput {
  /** The endpoint's secret (whsec_...). During a rotation, both the new and the old one may be passed. */
  secret: string | string[];
  headers: WebhookHeaders;
  /** The raw body, exactly as received: re-serialized JSON does not verify. */
  body: string | Uint8Array | ArrayBuffer;
  /** How far webhook-timestamp may be from now, in seconds, either way. Default 300. */
  toleranceSeconds?: number;
  /** Now, for a test; Date.now() by default. */
  nowMs?: number;
}

const SECRET_PREFIX = 'whsec_';

function header(headers: WebhookHeaders, name: string): string | null {
  if (headers instanceof Headers) return headers.get(name);
  const value = headers[name] ?? Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value.join(' ') : value ?? null;
}

/**
 * Verifies a webhook delivery as Standard Webhooks specifies, with Web Crypto (browsers, Node 20+, edge runtimes):
 * webhook-signature holds one or more space-separated `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`
 * keyed by the secret's base64-decoded bytes; the timestamp must be within the tolerance. The comparison is
 * crypto.subtle.verify's, which takes the same time wherever the bytes differ. Resolves with the parsed event,
 * rejects with WebhookVerificationError.
 */
export async function verifyWebhook(input: VerifyWebhookInput): Promise<WebhookEvent> {
  const id = header(input.headers, 'webhook-id');
  const timestamp = header(input.headers, 'webhook-timestamp');
  const signatures = header(input.headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('WEBHOOK.MISSING_HEADERS', 'webhook-id, webhook-timestamp and webhook-signature are all required');
  const seconds = Number(timestamp);
  const tolerance = input.toleranceSeconds ?? 300;
  if (!/^\d+$/.test(timestamp) || Math.abs((input.nowMs ?? Date.now()) / 1000 - seconds) > tolerance) {
    throw new WebhookVerificationError('WEBHOOK.TIMESTAMP_OUT_OF_TOLERANCE', `webhook-timestamp ${timestamp} is more than ${tolerance} s from now`);
  }
  const body = typeof input.body === 'string' ? new TextEncoder().encode(input.body) : new Uint8Array(input.body);
  const signed = concat(new TextEncoder().encode(`${id}.${timestamp}.`), body);
  const candidates = signatures.split(' ').filter((entry) => entry.startsWith('v1,')).map((entry) => decodeSignature(entry.slice(3)));
  for (const secret of Array.isArray(input.secret) ? input.secret : [input.secret]) {
    const key = await crypto.subtle.importKey('raw', secretKey(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
    for (const signature of candidates) {
      if (signature && await crypto.subtle.verify('HMAC', key, signature, signed)) return parseEvent(body);
    }
  }
  throw new WebhookVerificationError('WEBHOOK.INVALID_SIGNATURE', 'no v1 signature in webhook-signature matches this secret and body');
}

function secretKey(secret: string): Uint8Array<ArrayBuffer> {
  try {
    return base64Decode(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret);
  } catch {
    throw new WebhookVerificationError('WEBHOOK.INVALID_SECRET', 'the secret is not whsec_ followed by base64');
  }
}

function decodeSignature(text: string): Uint8Array<ArrayBuffer> | null {
  try {
    return base64Decode(text);
  } catch {
    return null;
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function parseEvent(body: Uint8Array): WebhookEvent {
  try {
    return JSON.parse(new TextDecoder().decode(body)) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('WEBHOOK.INVALID_BODY', 'the signed body is not JSON');
  }
}
