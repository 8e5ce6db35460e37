import avro from 'avsc';
import { MemoryServiceError } from '@memory/platform';

/**
 * Checks that `text` is an Avro schema and returns the form sent to the registry: the JSON value with object keys
 * sorted at every level. Sending one form for every layout of a schema keeps "same schema, same id" true even on
 * a registry that compares raw text; and a registry that may accept anything (Apicurio checks validity only when
 * a rule says so) never stores a schema our readers cannot parse.
 */
export function canonicalSchema(text: string): string {
  if (typeof text !== 'string') throw invalid('the schema must be a JSON string');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw invalid(`the schema is not JSON: ${(cause as Error).message}`, cause);
  }
  try {
    avro.Type.forSchema(json as avro.Schema);
  } catch (cause) {
    throw invalid(`the schema is not valid Avro: ${(cause as Error).message}`, cause);
  }
  return JSON.stringify(sortKeys(json));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((key) => [key, sortKeys(record[key])]),
  );
}

function invalid(message: string, cause?: unknown): MemoryServiceError {
  return new MemoryServiceError('REGISTRY.INVALID_SCHEMA', message, cause === undefined ? {} : { cause });
}
