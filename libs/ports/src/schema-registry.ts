import type { SchemaRegistryClient } from '@memory/contracts';

/** A Confluent-API-shaped schema registry: subjects with versions, schemas with global ids. */
export interface SchemaRegistry extends SchemaRegistryClient {
  /** Versions registered under a subject, oldest first. */
  versions(subject: string): Promise<number[]>;
  schemaByVersion(subject: string, version: number | 'latest'): Promise<{ id: number; version: number; schema: string }>;
  subjects(): Promise<string[]>;
  close(): Promise<void>;
}
