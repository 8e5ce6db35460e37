import autocannon from 'autocannon';
import { sentenceGenerator, summarizeLatencies, type LatencySummary } from '@memory/evaluation';
import type { EdgeCommand, EdgeLevel, Freshness, FreshnessCommand, SearchCommand } from './load-commands.js';
import { PerfClient } from './perf-http.js';
import { mapWithConcurrency } from './pool.js';
import { progress, type Print } from './progress.js';

/** The load generator's scenarios: each runs in the generator's process and returns its figures. */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Text ingests through autocannon (a keep-alive HTTP/1.1 client cheap enough not to be the bottleneck), each a
 * different generated memory: what the edge accepts (202, durably appended) per second, with its latency.
 */
export async function edgeAccept(command: EdgeCommand, print: Print): Promise<EdgeLevel> {
  const texts = sentenceGenerator(command.seed);
  const bodies = Array.from({ length: 4096 }, () => JSON.stringify({ source: { type: 'text', content: texts.memory() } }));
  let sent = 0;
  const latencies: number[] = [];
  let refused = 0;
  const unexpected = new Map<number, number>();
  const ticker = setInterval(() => print(`  ${latencies.length} accepted so far`), 3_000);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: command.url,
        connections: command.connections,
        duration: command.seconds,
        requests: [
          {
            method: 'POST',
            path: '/v1/memory',
            headers: { authorization: `Bearer ${command.apiKey}`, 'content-type': 'application/json' },
            setupRequest: (request) => {
              const n = sent++;
              return { ...request, headers: { ...request.headers, 'x-end-user-id': command.endUserIds[n % command.endUserIds.length]! }, body: bodies[n % bodies.length]! };
            },
          },
        ],
      },
      (error, finished) => (error ? reject(error as Error) : resolve(finished)),
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      if (status === 202) latencies.push(ms);
      else if (status === 429 || status === 503) refused++;
      else unexpected.set(status, (unexpected.get(status) ?? 0) + 1);
    });
  }).finally(() => clearInterval(ticker));
  if (unexpected.size > 0) throw new Error(`POST /v1/memory answered ${[...unexpected].map(([status, count]) => `${status} x${count}`).join(', ')}; expected 202 (or 429/503 under overload)`);
  if (result.errors > 0 && latencies.length === 0) throw new Error(`no request reached the service (${result.errors} connection errors)`);
  const seconds = result.duration;
  return { connections: command.connections, seconds, accepted: latencies.length, refused, acceptedPerS: latencies.length / seconds, latency: summarizeLatencies(latencies) };
}

/** Generated queries with automatic routing; the server's times include embedding the query. */
export async function searchLatency(command: SearchCommand, print: Print): Promise<LatencySummary> {
  const client = new PerfClient(command.url, command.apiKey);
  const texts = sentenceGenerator(command.seed);
  const queries = Array.from({ length: command.queries }, (_, i) => ({ endUserId: command.endUserIds[i % command.endUserIds.length]!, query: texts.query() }));
  // A few unmeasured searches per user first: the first ones pay for loading the user's indexes.
  await mapWithConcurrency(command.endUserIds, 1, (endUserId) => client.search(endUserId, texts.query()));
  const shown = progress('searched', queries.length, print, ' queries');
  let done = 0;
  const ms = await mapWithConcurrency(queries, command.clients, async ({ endUserId, query }) => {
    const res = await client.search(endUserId, query, { limit: 10 });
    if (res.status !== 200) throw new Error(`POST /v1/search answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    shown.update(++done);
    return res.ms;
  });
  shown.finish(done);
  return summarizeLatencies(ms);
}

/**
 * At a steady rate, each memory carries a unique code; from its 202, a direct_lookup search for the code is repeated
 * every `pollMs` until the memory comes back. direct_lookup reads the stores the pipeline writes last, so found
 * there means searchable.
 */
export async function freshness(command: FreshnessCommand, print: Print, pollMs = 20, giveUpMs = 30_000): Promise<Freshness> {
  const client = new PerfClient(command.url, command.apiKey);
  const texts = sentenceGenerator(command.seed);
  const found: number[] = [];
  let neverFound = 0;
  const probes: Promise<void>[] = [];
  const probe = async (code: string, text: string) => {
    const res = await client.ingest(command.endUserId, `${text} Reference ${code}.`);
    if (!res.jobId) throw new Error(`POST /v1/memory answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    const accepted = performance.now();
    while (performance.now() - accepted < giveUpMs) {
      const hit = await client.search(command.endUserId, code, { strategy: 'direct_lookup', limit: 5 });
      if (hit.status !== 200) throw new Error(`POST /v1/search answered ${hit.status}: ${JSON.stringify(hit.body).slice(0, 300)}`);
      if (hit.jobIds.includes(res.jobId)) {
        found.push(performance.now() - accepted);
        return;
      }
      await sleep(pollMs);
    }
    neverFound++;
  };
  const total = Math.max(1, Math.round(command.ratePerS * command.seconds));
  const started = performance.now();
  const shown = progress('sent', total, print, ' memories');
  for (let n = 0; n < total; n++) {
    // Scheduled against the start, not the previous send, so a slow send does not lower the rate.
    const wait = started + (n * 1000) / command.ratePerS - performance.now();
    if (wait > 0) await sleep(wait);
    probes.push(probe(`FRESH-${n}-${command.seed.toString(36)}`, texts.memory()));
    shown.update(n + 1);
  }
  shown.finish(total);
  await Promise.all(probes);
  return { ratePerS: command.ratePerS, sent: total, neverFound, latency: summarizeLatencies(found) };
}
