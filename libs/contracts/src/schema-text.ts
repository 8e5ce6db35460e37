import { createHash } from 'node:crypto';
import avro from 'avsc';
import { MemoryServiceError } from '@memory/platform';

export interface ParsedSchema {
  /** The schema as JSON with object keys sorted at every level: equal for texts that differ only in layout. */
  canonical: string;
  /** sha-256 of the canonical text: the identity of a schema across subjects. */
  fingerprint: string;
  type: avro.Type;
}

/**
 * Parses and checks an Avro schema text, for every schema registry adapter. Identity is the JSON value with keys
 * normalised rather than avsc's own `schema()` export, because that export drops attributes that matter to readers
 * (logicalType, for one). Field order is untouched: it is the binary layout.
 */
export function parseSchema(text: string): ParsedSchema {
  if (typeof text !== 'string') throw invalid('the schema must be a JSON string');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw invalid(`the schema is not JSON: ${(cause as Error).message}`, cause);
  }
  let type: avro.Type;
  try {
    type = avro.Type.forSchema(json as avro.Schema);
  } catch (cause) {
    throw invalid(`the schema is not valid Avro: ${(cause as Error).message}`, cause);
  }
  const canonical = JSON.stringify(sortKeys(json));
  return { canonical, fingerprint: createHash('sha256').update(canonical).digest('hex'), type };
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

function invalid(message: string, cause?: unknown): MemoryServiceError {
  return new MemoryServiceError('REGISTRY.INVALID_SCHEMA', message, cause === undefined ? {} : { cause });
}
