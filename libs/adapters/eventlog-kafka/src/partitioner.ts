import type { ICustomPartitioner } from 'kafkajs';
import { partitionFor } from '@memory/contracts';

/**
 * For kafkajs: the adapter sets every message's partition itself (it needs to know where each record goes to
 * report its offset), so this only hands that choice back; a message without one falls back to partitionFor.
 */
export const explicitPartitioner: ICustomPartitioner = () => ({ partitionMetadata, message }) =>
  typeof message.partition === 'number' ? message.partition : partitionFor(String(message.key ?? ''), partitionMetadata.length);
