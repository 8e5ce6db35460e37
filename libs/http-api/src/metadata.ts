import { RequestError } from '@memory/platform';
import { isMetadataKey, type MemoryMetadata } from '@memory/ports';
import { REQUEST_LIMITS } from './limits.js';

const LIMITS = REQUEST_LIMITS.metadata;

const invalid = (message: string) => new RequestError(400, 'METADATA.INVALID', message);
const tooLarge = (message: string, details: Record<string, unknown>) => new RequestError(400, 'METADATA.TOO_LARGE', message, details);

/**
 * The `metadata` of an ingestion request: a flat JSON object of string, finite number or boolean values within
 * REQUEST_LIMITS.metadata. Absent, null or {} is no metadata (null).
 */
export function validateMetadata(raw: unknown): MemoryMetadata | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw invalid('metadata must be a JSON object of keys to string, number or boolean values, e.g. {"project":"apollo","priority":2}');
  }
  const entries = Object.entries(raw);
  if (entries.length > LIMITS.maxKeys) {
    throw tooLarge(`metadata has ${entries.length} keys; the limit is ${LIMITS.maxKeys}`, { keys: entries.length, maxKeys: LIMITS.maxKeys });
  }
  for (const [key, value] of entries) {
    if (!isMetadataKey(key)) {
      throw invalid(`metadata key ${JSON.stringify(key)} is not allowed: a key is 1-64 characters of letters, digits, _ and - (not __proto__)`);
    }
    if (typeof value === 'string') {
      if (value.length > LIMITS.maxStringChars) {
        throw tooLarge(`metadata.${key} has ${value.length} characters; a string value is at most ${LIMITS.maxStringChars}`, { key, maxStringChars: LIMITS.maxStringChars });
      }
    } else if (!(typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value)))) {
      throw invalid(`metadata.${key} must be a string, a finite number or a boolean (no null, object or array: metadata is flat)`);
    }
  }
  const bytes = Buffer.byteLength(JSON.stringify(raw));
  if (bytes > LIMITS.maxJsonBytes) {
    throw tooLarge(`metadata is ${bytes} bytes as JSON; the limit is ${LIMITS.maxJsonBytes}`, { bytes, maxJsonBytes: LIMITS.maxJsonBytes });
  }
  return entries.length === 0 ? null : (Object.fromEntries(entries) as MemoryMetadata);
}

/** The `metadata` part of a multipart upload: the same object, as JSON text. */
export function validateMetadataField(text: string | null): MemoryMetadata | null {
  if (text === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid('the metadata part must hold a JSON object, e.g. {"project":"apollo"}; it is not valid JSON');
  }
  if (parsed === null) throw invalid('the metadata part must hold a JSON object, e.g. {"project":"apollo"}');
  return validateMetadata(parsed);
}
