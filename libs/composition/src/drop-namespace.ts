import { ConfigError } from '@memory/platform';
import type { ServiceConfig } from './config.js';
import { indexPrefixes } from './engines-distributed.js';
import { namespaceTopicPrefix } from './namespaced-event-log.js';

/**
 * Removes what a namespace holds in the distributed mode's engines: its Elasticsearch indices and templates (text
 * and visual) and its Kafka topics and consumer groups. How tests, benchmarks and drills that ran on a namespace of
 * their own clean up, once its processes have stopped. Its blobs (under `<namespace>/` in the bucket) stay. The
 * default namespace is refused: it is a deployment's data, not a run's.
 */
export async function dropNamespace(config: Pick<ServiceConfig, 'namespace' | 'elasticsearch' | 'kafka'>): Promise<void> {
  if (!config.namespace) throw new ConfigError('dropNamespace needs MEMORY_NAMESPACE: the default namespace holds a deployment\'s data, not a run\'s');
  const { dropElasticsearchStores } = await import('@memory/stores-elasticsearch');
  const { text, visual } = indexPrefixes(config);
  for (const prefix of [text, visual]) await dropElasticsearchStores({ node: config.elasticsearch.url, prefix });
  const { deleteKafkaPrefix } = await import('@memory/eventlog-kafka');
  await deleteKafkaPrefix(config.kafka.brokers, namespaceTopicPrefix(config.namespace));
}
