export { createEmbeddedSchemaRegistry, type EmbeddedSchemaRegistryOptions } from './schema-registry.js';
export { COMPATIBILITY_LEVELS, type CompatibilityLevel } from './compatibility.js';
