export { openElasticsearchStores, dropElasticsearchStores, type ElasticsearchStores } from './open.js';
export { elasticsearchStoresOptionsFromEnv, resolveElasticsearchStoresOptions, type ElasticsearchStoresOptions } from './options.js';
export { indexTemplates, SCHEMA_VERSION } from './templates.js';
