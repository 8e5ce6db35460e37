import { withTimeout } from '@memory/platform';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';

/**
 * The process's one registry, with every metric of the service defined here, so names, labels and buckets are
 * decided once and a process exports only what it does (a counter no one increments still shows as 0). Labels
 * never carry a tenant, an end user, a job or a raw path: cardinality stays bounded and nobody learns an id from
 * a scrape.
 */
export const registry = new Registry();
// prom-client samples the event loop's delay every 10 ms by default: a timer that wakes every process of the service
// 100 times a second for ever, idle or not. Ten samples a second still give a scrape every 15 s 150 of them.
collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 100 });

/**
 * The JS heap in use right after the latest full (mark-compact) collection: what the process really holds, without
 * the garbage the heap in use counts between collections. V8 lets the heap grow lazily under load, so the heap in
 * use (and RSS) climbs for a minute before the first full collection; this one climbs only when live data does.
 */
const liveHeap = new Gauge({
  name: 'memory_heap_live_bytes',
  help: 'JS heap in use right after the latest full garbage collection (0 until the first one).',
  registers: [registry],
});
liveHeap.set(0);
new PerformanceObserver((list) => {
  if (list.getEntries().some((entry) => (entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR)) liveHeap.set(getHeapStatistics().used_heap_size);
}).observe({ entryTypes: ['gc'] });

const seconds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export const httpRequests = new Counter({
  name: 'memory_http_requests_total',
  help: 'HTTP requests answered, by route template, method and status code.',
  labelNames: ['route', 'method', 'status'] as const,
  registers: [registry],
});

export const httpRequestDuration = new Histogram({
  name: 'memory_http_request_duration_seconds',
  help: 'Time from a request received to its answer sent, by route template and method.',
  labelNames: ['route', 'method'] as const,
  buckets: seconds,
  registers: [registry],
});

export const stageRecords = new Counter({
  name: 'memory_stage_records_total',
  help: 'Records a pipeline stage handled: processed (outputs appended) or failed (dead-lettered).',
  labelNames: ['stage', 'outcome'] as const,
  registers: [registry],
});

export const stageDuration = new Histogram({
  name: 'memory_stage_duration_seconds',
  help: 'Time a stage took over one batch of records, decoding, processing and appending its outputs (retries included).',
  labelNames: ['stage'] as const,
  buckets: seconds,
  registers: [registry],
});

export const deadLetters = new Counter({
  name: 'memory_dead_letters_total',
  help: 'Records a stage gave up on and wrote to the dead-letter topic.',
  labelNames: ['stage'] as const,
  registers: [registry],
});

export const idempotencyTakeovers = new Counter({
  name: 'memory_idempotency_takeovers_total',
  help: 'Idempotency-Key claims taken over from a process that died before answering; each accepts that process\'s job again.',
  registers: [registry],
});

export const embeddingBatchSize = new Histogram({
  name: 'memory_embedding_batch_size',
  help: 'Texts per call of the embedding model.',
  buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512],
  registers: [registry],
});

export const embeddingDuration = new Histogram({
  name: 'memory_embedding_duration_seconds',
  help: 'Time of one call of the embedding model.',
  buckets: seconds,
  registers: [registry],
});

/** One consumer group's position on one partition of one of its input topics. */
export interface PartitionLag {
  group: string;
  topic: string;
  partition: number;
  lag: number;
}

type Source<T> = () => Promise<T>;
const lagSources = new Set<Source<PartitionLag[]>>();
const jobSources = new Set<Source<Record<string, number>>>();

/** How long a scrape waits for the log or the job store before it answers without their series. */
const SOURCE_TIMEOUT_MS = 3_000;

export const scrapeSourceFailures = new Counter({
  name: 'memory_metrics_source_failures_total',
  help: 'Scrapes that answered without a source\'s series (consumer lag, jobs) because the engine failed or was slow.',
  labelNames: ['source'] as const,
  registers: [registry],
});

/**
 * What the sources of one gauge say, in order; a source whose engine is down or slow is left out (and counted), so
 * a scrape during an outage still answers with everything else, which is when an operator needs it most.
 */
async function readSources<T>(name: string, sources: Set<Source<T>>): Promise<T[]> {
  const read = [...sources].map(async (source) => {
    try {
      return await withTimeout(source(), SOURCE_TIMEOUT_MS, name);
    } catch {
      scrapeSourceFailures.inc({ source: name });
      return undefined;
    }
  });
  return (await Promise.all(read)).filter((value): value is Awaited<T> => value !== undefined);
}

new Gauge({
  name: 'memory_consumer_lag',
  help: 'Records a consumer group has still to process on a partition of an input topic (end offset minus committed offset).',
  labelNames: ['group', 'topic', 'partition'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    for (const lags of await readSources('consumer_lag', lagSources)) {
      for (const { group, topic, partition, lag } of lags) this.set({ group, topic, partition: String(partition) }, lag);
    }
  },
});

new Gauge({
  name: 'memory_jobs',
  help: 'Jobs in the job store by state (Accepted, Processing, Completed, Failed).',
  labelNames: ['state'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    for (const counts of await readSources('jobs', jobSources)) {
      for (const [state, count] of Object.entries(counts)) this.set({ state }, count);
    }
  },
});

/**
 * Adds what a process reads at scrape time: its consumer groups' lag, the job store's counts. Returns the removal,
 * for a service that stops while the process goes on (tests start several in one process).
 */
export function observeLag(source: Source<PartitionLag[]>): () => void {
  lagSources.add(source);
  return () => lagSources.delete(source);
}

export function observeJobs(source: Source<Record<string, number>>): () => void {
  jobSources.add(source);
  return () => jobSources.delete(source);
}

/** Times a call into a histogram, whether it resolves or throws. */
export async function timed<T>(histogram: Histogram, labels: Record<string, string>, work: () => Promise<T>): Promise<T> {
  const end = histogram.startTimer(labels);
  try {
    return await work();
  } finally {
    end();
  }
}

/** The exposition text GET /metrics answers, and its content type. */
export async function metricsExposition(): Promise<{ contentType: string; text: string }> {
  return { contentType: registry.contentType, text: await registry.metrics() };
}
