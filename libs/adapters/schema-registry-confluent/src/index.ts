import type { SchemaRegistry } from '@memory/ports';
import { resolveConfluentSchemaRegistryOptions, type ConfluentSchemaRegistryOptions } from './options.js';
import { ConfluentSchemaRegistry } from './schema-registry.js';

export {
  COMPATIBILITY_LEVELS,
  DEFAULT_SCHEMA_REGISTRY_URL,
  confluentSchemaRegistryOptionsFromEnv,
  type CompatibilityLevel,
  type ConfluentSchemaRegistryOptions,
} from './options.js';

/**
 * A SchemaRegistry on a server with the Confluent REST API. Validates the options and sends nothing yet: the first
 * call reaches the registry, so a registry that is still starting does not fail the caller's start.
 */
export async function createConfluentSchemaRegistry(options: ConfluentSchemaRegistryOptions): Promise<SchemaRegistry> {
  return new ConfluentSchemaRegistry(resolveConfluentSchemaRegistryOptions(options));
}
