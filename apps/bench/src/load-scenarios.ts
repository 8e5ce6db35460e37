import autocannon from 'autocannon';
import { sentenceGenerator, summarizeLatencies, type LatencySummary } from '@memory/evaluation';
import { seededRandom } from '@memory/platform';
import type { EdgeCommand, EdgeLevel, Freshness, FreshnessCommand, ReadCommand, Reads, SearchCommand, UpdateCommand } from './load-commands.js';
import { PerfClient } from './perf-http.js';
import { mapWithConcurrency } from '@memory/platform';
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

const LIST_PAGE = 100;

/**
 * GET /v1/memories in pages of 100 (the end user's memories walked newest first with each page's cursor, from the
 * first again at the end), then GET /v1/memories/{id} of ids drawn from what the pages showed. One client: the
 * latency of a read, not the service's read capacity.
 */
export async function readLatency(command: ReadCommand, print: Print): Promise<Reads> {
  const client = new PerfClient(command.url, command.apiKey);
  const read = async (path: string) => {
    const res = await client.request('GET', path, command.endUserId);
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    return res as typeof res & { body: { data?: Array<{ id: string }>; nextCursor?: string | null } };
  };
  // Unmeasured first reads: the first one pays for loading the user's index.
  await read(`/v1/memories?limit=${LIST_PAGE}`);
  const seen: string[] = [];
  const pageMs: number[] = [];
  let cursor: string | null = null;
  const listed = progress('listed', command.requests, print, ' pages');
  while (pageMs.length < command.requests) {
    const page = await read(`/v1/memories?limit=${LIST_PAGE}${cursor ? `&cursor=${cursor}` : ''}`);
    pageMs.push(page.ms);
    seen.push(...(page.body.data ?? []).map((memory) => memory.id));
    cursor = page.body.nextCursor ?? null;
    listed.update(pageMs.length);
  }
  listed.finish(pageMs.length);
  if (seen.length === 0) throw new Error(`end user ${command.endUserId} has no memories to read`);
  const random = seededRandom(command.seed);
  const getMs: number[] = [];
  const got = progress('read', command.requests, print, ' memories by id');
  for (let n = 0; n < command.requests; n++) {
    getMs.push((await read(`/v1/memories/${encodeURIComponent(seen[Math.floor(random() * seen.length)]!)}`)).ms);
    got.update(n + 1);
  }
  got.finish(command.requests);
  return { get: summarizeLatencies(getMs), listPage: summarizeLatencies(pageMs) };
}

/** Memories at a steady rate, each searched for by its unique code from its 202 until found (untilSearchable). */
export async function freshness(command: FreshnessCommand, print: Print): Promise<Freshness> {
  const client = new PerfClient(command.url, command.apiKey);
  const texts = sentenceGenerator(command.seed);
  return untilSearchable(client, command, print, 'memories', async (n, code) => {
    const res = await client.ingest(command.endUserId, `${texts.memory()} Reference ${code}.`);
    if (res.jobId) return res.jobId;
    if (command.refusable && REFUSALS.has(res.status)) return { refused: res.status };
    throw new Error(`POST /v1/memory answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
  }, command.pollMs);
}

/**
 * Freshness of corrections: the memories are ingested and waited for first, then updated at the steady rate, each
 * with a new code; a memory's time runs from the PATCH's 202 to the first direct_lookup search that finds the new
 * code. An updated memory keeps its ingestion job's id, which is what search results name.
 */
export async function updateFreshness(command: UpdateCommand, print: Print): Promise<Freshness> {
  const client = new PerfClient(command.url, command.apiKey);
  const texts = sentenceGenerator(command.seed);
  const total = Math.max(1, Math.round(command.ratePerS * command.seconds));
  const loaded = progress('ingested', total, print, ' memories to update');
  let ingested = 0;
  const jobIds = await mapWithConcurrency(Array.from({ length: total }, (_, n) => n), 16, async (n) => {
    const res = await client.ingest(command.endUserId, `${texts.memory()} Reference ORIG-${n}-${command.seed.toString(36)}.`);
    if (!res.jobId) throw new Error(`POST /v1/memory answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    await waitForCompleted(client, command.endUserId, res.jobId);
    loaded.update(++ingested);
    return res.jobId;
  });
  loaded.finish(total);
  return untilSearchable(client, command, print, 'updates', async (n, code) => {
    const jobId = jobIds[n]!;
    const res = await client.updateContent(command.endUserId, `mem_${jobId}_0`, `${texts.memory()} Reference ${code}.`);
    if (!res.jobId) throw new Error(`PATCH /v1/memories answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    return jobId;
  });
}

async function waitForCompleted(client: PerfClient, endUserId: string, jobId: string, giveUpMs = 60_000): Promise<void> {
  const deadline = performance.now() + giveUpMs;
  for (;;) {
    const res = await client.request('GET', `/v1/jobs/${encodeURIComponent(jobId)}`, endUserId);
    const status = (res.body as { status?: unknown } | null)?.status;
    if (status === 'Completed') return;
    if (status === 'Failed' || performance.now() > deadline) throw new Error(`job ${jobId}: ${JSON.stringify(res.body).slice(0, 300)}`);
    await sleep(50);
  }
}

/**
 * At a steady rate, `send` makes the n-th memory carry a unique code (an ingest, or an update) and names the job id
 * search results will show for it. One poller asks every `pollMs` for all the codes still pending, in direct_lookup
 * searches of up to POLL_BATCH codes (a query of identifiers), and each memory's time runs from its 202 to the first
 * search that returns it. direct_lookup reads the stores the pipeline writes last, so found there means searchable.
 * One poller, so measuring adds the same small load whatever the rate: a poller per memory made its own searches
 * the service's main work at 40 memories/s (10+ pending, each asking 50 times a second).
 */
async function untilSearchable(
  client: PerfClient,
  command: { endUserId: string; ratePerS: number; seconds: number; seed: number },
  print: Print,
  what: string,
  send: (n: number, code: string) => Promise<string | { refused: number }>,
  pollMs = 20,
  giveUpMs = 30_000,
): Promise<Freshness> {
  const found: number[] = [];
  let neverFound = 0;
  /** job id -> its memory's code, and when its 202 came */
  const pending = new Map<string, { code: string; accepted: number }>();
  let sending = true;
  const poller = (async () => {
    while (sending || pending.size > 0) {
      const round = performance.now();
      const waiting = [...pending.values()].map((p) => p.code);
      for (let i = 0; i < waiting.length; i += POLL_BATCH) {
        const hit = await client.search(command.endUserId, waiting.slice(i, i + POLL_BATCH).join(' '), { strategy: 'direct_lookup', limit: POLL_BATCH });
        if (hit.status !== 200) throw new Error(`POST /v1/search answered ${hit.status}: ${JSON.stringify(hit.body).slice(0, 300)}`);
        const now = performance.now();
        for (const jobId of hit.jobIds) {
          const probe = pending.get(jobId);
          if (!probe) continue;
          found.push(now - probe.accepted);
          pending.delete(jobId);
        }
      }
      for (const [jobId, { accepted }] of pending) {
        if (performance.now() - accepted < giveUpMs) continue;
        neverFound++;
        pending.delete(jobId);
      }
      const wait = round + pollMs - performance.now();
      if (wait > 0) await sleep(wait);
    }
  })();
  const total = Math.max(1, Math.round(command.ratePerS * command.seconds));
  const started = performance.now();
  const shown = progress('sent', total, print, ` ${what}`);
  const sends: Promise<void>[] = [];
  const refused: Record<string, number> = {};
  for (let n = 0; n < total; n++) {
    // Scheduled against the start, not the previous send, so a slow send does not lower the rate.
    const wait = started + (n * 1000) / command.ratePerS - performance.now();
    if (wait > 0) await sleep(wait);
    const code = `FRESH-${n}-${command.seed.toString(36)}`;
    sends.push(
      send(n, code).then((answer) => {
        if (typeof answer === 'string') pending.set(answer, { code, accepted: performance.now() });
        else refused[answer.refused] = (refused[answer.refused] ?? 0) + 1;
      }),
    );
    shown.update(n + 1);
  }
  shown.finish(total);
  await Promise.all(sends);
  sending = false;
  await poller;
  const refusals = Object.values(refused).reduce((sum, count) => sum + count, 0);
  return { ratePerS: command.ratePerS, sent: total, accepted: total - refusals, refused, neverFound, latency: summarizeLatencies(found) };
}

/** The answers of admission (README, "Limits and backpressure"): the request was not accepted. */
const REFUSALS = new Set([429, 503, 507]);

/** Codes asked for in one freshness search. */
const POLL_BATCH = 50;
