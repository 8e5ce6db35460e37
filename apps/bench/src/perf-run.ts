import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sentenceGenerator, type LatencySummary, type PerformanceRow } from '@memory/evaluation';
import { resolveTimeReferences } from '@memory/temporal';
import { BenchApi } from './api.js';
import type { EdgeLevel, Reads } from './load-commands.js';
import { runLoad } from './load-process.js';
import { embedRaw, ingestMany, pipelineThroughput, waitForJobs, type PerfContext } from './perf-pipeline.js';
import { eraseLatency, forgetLatency } from './perf-forget.js';
import { idleCpu, nextFullCollection } from './perf-footprint.js';
import { overloadScenario } from './perf-overload.js';
import type { PerfPlan } from './perf-plan.js';
import type { Print } from './progress.js';
import type { Target } from './service.js';

/** Every figure of a run, as --json writes it, and the rows of the printed table. */
export interface PerfFigures {
  figures: Record<string, unknown>;
  rows: PerformanceRow[];
}

/** The idle row: a few seconds for the last commits and refreshes after a drain to settle, then the window read. */
const IDLE_SETTLE_S = 5;
const IDLE_SECONDS = 10;

const sizeLabel = (size: number) => (size >= 1000 ? `${size / 1000}k` : String(size));

/**
 * The scenarios of issue 6 in the order that keeps each measurement clean: the bare model first (nothing else
 * running), then the pipeline, search at each size (at the first, also search while another user's memories are
 * being processed, and freshness of new memories and of updates while the store is small and idle; the 10-user store when the search user holds
 * as many as each of them), and the edge's flood last, since it leaves a backlog the pipeline works through for
 * minutes. Timed traffic comes from the load generator's process.
 */
export async function runScenarios(target: Target, plan: PerfPlan, print: Print): Promise<PerfFigures> {
  const figures: Record<string, unknown> = {};
  const rows: PerformanceRow[] = [];
  const runId = Date.now().toString(36);
  const ctx: PerfContext = { api: new BenchApi(target.url, target.apiKey), texts: sentenceGenerator(plan.seed), print };
  const service = { url: target.url, apiKey: target.apiKey };
  let stored = 0;
  let seed = plan.seed;
  const nextSeed = () => ++seed;

  const liveHeaps: Array<{ memories: number; mb: number }> = [];
  const footprint = async (label: string) => {
    const measured = await target.footprint();
    // The live heap after a full collection that came once the loading stopped, so it counts every memory stored;
    // only where the memories live in the process at the target's address (the embedded service, not the edge).
    const heap = target.dataDir === null ? null : await nextFullCollection(target.url);
    if (heap) liveHeaps.push({ memories: stored, mb: heap.mb });
    const perMemory = measured.diskBytes !== null && stored > 0 ? measured.diskBytes / stored : null;
    figures[`footprint_${label}`] = { memories: stored, rss_mb: measured.rssMb, pss_mb: measured.pssMb, disk_bytes: measured.diskBytes, disk_bytes_per_memory: perMemory, disk: measured.disk, processes: measured.processes };
    const mb = (value: number | null) => (value === null ? '-' : value.toFixed(0));
    const each = measured.processes.map((one) => `${one.name} ${mb(one.rssMb)}/${mb(one.pssMb)}/${mb(one.anonymousMb)}`);
    if (each.length > 0) print(`  memory at ${stored} memories, per process (RSS/PSS/anonymous MB): ${each.join(', ')}`);
    rows.push({ metric: 'rss_mb', condition: `${stored} memories in store`, value: measured.rssMb, unit: 'MB' });
    rows.push({ metric: 'pss_mb', condition: `${stored} memories in store, shared pages once`, value: measured.pssMb, unit: 'MB' });
    rows.push({ metric: 'disk_per_memory', condition: `${stored} memories in store`, value: perMemory, unit: 'bytes' });
  };
  const load = async (endUserId: string, count: number) => {
    const jobIds = await ingestMany(ctx, endUserId, count, 16, `accepted (${endUserId})`);
    const { failed } = await waitForJobs(ctx, jobIds, 'processed');
    if (failed) print(`  ${failed} jobs failed`);
    stored += jobIds.length - failed;
  };
  const search = async (condition: string, endUserIds: string[], clients: number): Promise<LatencySummary> => {
    print(`\n[search_ms] ${condition}, ${plan.searchQueries} queries, ${clients} client(s)`);
    const latency = await runLoad({ kind: 'search', ...service, seed: nextSeed(), endUserIds, queries: plan.searchQueries, clients }, print);
    rows.push({ metric: 'search_ms', condition: `${condition}, ${clients} client${clients > 1 ? 's' : ''}`, value: latency.count, unit: 'queries', latency });
    return latency;
  };

  const reads = async (condition: string, endUserId: string): Promise<Reads> => {
    print(`\n[read_ms] ${condition}: ${plan.readRequests} pages of 100 listed, ${plan.readRequests} memories read by id, 1 client`);
    const measured = await runLoad({ kind: 'read', ...service, seed: nextSeed(), endUserId, requests: plan.readRequests }, print);
    rows.push({ metric: 'get_ms', condition: `${condition}, by id, 1 client`, value: measured.get.count, unit: 'reads', latency: measured.get });
    rows.push({ metric: 'list_page_ms', condition: `${condition}, 100 a page, 1 client`, value: measured.listPage.count, unit: 'pages', latency: measured.listPage });
    return measured;
  };

  print(`\n[embed_raw_per_s] ${plan.embedTexts} memory texts, one per call, in the bench process`);
  // The texts as the pipeline embeds them: with their time expressions resolved ("this morning" becomes a date,
  // a few more tokens), so that the limit is the model's on the same input.
  const asEmbedded = (text: string) => resolveTimeReferences(text, { referenceTime: Date.now(), timeZone: 'UTC' }).resolvedText;
  // The embedded service's own folder pins the model it uses; a distributed service has none here, so a scratch one.
  const scratch = target.dataDir ? null : mkdtempSync(join(tmpdir(), 'memory-perf-model-'));
  const raw = await embedRaw(target.dataDir ?? scratch!, Array.from({ length: plan.embedTexts }, () => asEmbedded(ctx.texts.memory())), print).finally(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });
  figures['embed_raw_per_s'] = raw;
  rows.push({ metric: 'embed_raw_per_s', condition: raw.model, value: raw.perS, unit: 'texts/s' });

  print(`\n[pipeline_per_s] ${plan.pipelineMemories} memories, accepted as fast as possible, until all Completed`);
  // A user of its own: the search user's first step must hold the first search size, not what this loads.
  const pipeline = await pipelineThroughput(ctx, `pipeline-${runId}`, plan.pipelineMemories);
  stored += pipeline.memories - pipeline.failed;
  figures['pipeline_per_s'] = pipeline;
  figures['limit_ratio'] = pipeline.perS / raw.perS;
  rows.push({ metric: 'pipeline_per_s', condition: `${pipeline.memories} memories`, value: pipeline.perS, unit: 'mem/s' });
  rows.push({ metric: 'limit_ratio', condition: 'pipeline / embed_raw', value: pipeline.perS / raw.perS, unit: '' });
  if (pipeline.failed) print(`  ${pipeline.failed} jobs failed`);

  print(`\n[idle_cpu] the service's processes, ${IDLE_SETTLE_S} s after the pipeline drained, for ${IDLE_SECONDS} s with no request`);
  await sleep(IDLE_SETTLE_S * 1000);
  const idle = await idleCpu(target.pid(), IDLE_SECONDS);
  figures['idle_cpu'] = idle;
  if (idle) print(`  CPU ms a second: ${idle.processes.map((one) => `${one.name} ${one.msPerS.toFixed(1)}`).join(', ')}`);
  rows.push({ metric: 'idle_cpu', condition: "the service's processes, no request", value: idle?.msPerS ?? null, unit: 'ms/s' });

  const searchUser = `search-${runId}`;
  let held = 0;
  const searchFigures: Record<string, unknown> = {};
  const readFigures: Record<string, Reads> = {};
  /** How long a memory takes from 202 to searchable at half the sustainable rate (the freshness row's p50): the overload's quotas follow it. */
  let passMs = 0;
  for (const size of plan.searchSizes) {
    if (held < size) {
      print(`\n[load] ${size - held} more memories for the search user, to ${size}`);
      await load(searchUser, size - held);
      held = size;
    }
    const label = sizeLabel(size);
    await footprint(label);
    for (const clients of plan.searchClients) searchFigures[`${label}_c${clients}`] = await search(`1 user, ${label} memories`, [searchUser], clients);
    readFigures[label] = await reads(`1 user, ${label} memories`, searchUser);

    if (size === plan.searchSizes[0]) {
      // A search waits for the model thread, which another user's ingestion keeps busy: enough memories that the
      // pipeline is still working on them when the last query is asked.
      const busyUser = `busy-${runId}`;
      const backlog = await ingestMany(ctx, busyUser, plan.searchQueries * 8, 16, `accepted (${busyUser})`);
      searchFigures[`${label}_c1_during_ingestion`] = await search(`1 user, ${label}, ${backlog.length} ingests running`, [searchUser], 1);
      const { failed } = await waitForJobs(ctx, backlog, 'processed');
      stored += backlog.length - failed;

      // At the smallest size, before the bulk loads, so its traffic is the only load on the service.
      const rate = Math.max(1, pipeline.perS / 2);
      print(`\n[freshness_ms] ${rate.toFixed(1)} memories/s (half of pipeline_per_s) for ${plan.freshnessSeconds} s, polling search every 20 ms`);
      const fresh = await runLoad({ kind: 'freshness', ...service, seed: nextSeed(), endUserId: `fresh-${runId}`, ratePerS: rate, seconds: plan.freshnessSeconds }, print);
      stored += fresh.sent;
      figures['freshness_ms'] = fresh;
      passMs = fresh.latency.p50 ?? 0;
      rows.push({ metric: 'freshness_ms', condition: `${rate.toFixed(1)} mem/s steady`, value: fresh.latency.count, unit: 'found', latency: fresh.latency });
      if (fresh.neverFound) print(`  ${fresh.neverFound} memories were not searchable within 30 s`);

      print(`\n[update_ms] ${rate.toFixed(1)} updates/s for ${plan.freshnessSeconds} s, polling search every 20 ms`);
      const updated = await runLoad({ kind: 'update', ...service, seed: nextSeed(), endUserId: `upd-${runId}`, ratePerS: rate, seconds: plan.freshnessSeconds }, print);
      stored += updated.sent;
      figures['update_ms'] = updated;
      rows.push({ metric: 'update_ms', condition: `${rate.toFixed(1)} updates/s steady`, value: updated.latency.count, unit: 'found', latency: updated.latency });
      if (updated.neverFound) print(`  ${updated.neverFound} updates were not searchable within 30 s`);
    }

    if (size === plan.sharedUsers.each) {
      const { users, each } = plan.sharedUsers;
      const others = Array.from({ length: users - 1 }, (_, i) => `shared-${i + 1}-${runId}`);
      print(`\n[load] ${users - 1} more users with ${each} memories each, for ${users} users sharing the store`);
      for (const user of others) await load(user, each);
      const condition = `${users} users x ${sizeLabel(each)}`;
      await footprint(`${users}_users`);
      for (const clients of plan.searchClients) searchFigures[`${users}_users_c${clients}`] = await search(condition, [searchUser, ...others], clients);
    }
  }
  figures['search_ms'] = searchFigures;
  figures['read_ms'] = readFigures;

  print(`\n[forget_visible_ms] ${plan.forgetMemories} memories forgotten one at a time: DELETE to absent from search, and to the job's Completed`);
  const forgotten = await forgetLatency(ctx, `forget-${runId}`, plan.forgetMemories);
  figures['forget_visible_ms'] = forgotten;
  rows.push({ metric: 'forget_visible_ms', condition: 'DELETE to absent from a direct lookup', value: forgotten.absent.count, unit: 'memories', latency: forgotten.absent });
  rows.push({ metric: 'forget_completed_ms', condition: 'DELETE to the job Completed (receipt)', value: forgotten.completed.count, unit: 'memories', latency: forgotten.completed });

  print(`\n[erase_user_s] the search user (${held} memories) erased, another user ingesting meanwhile`);
  const erased = await eraseLatency(ctx, searchUser, held, `during-erasure-${runId}`);
  stored -= erased.forgotten ?? 0;
  figures['erase_user_s'] = erased;
  rows.push({ metric: 'erase_user_s', condition: `${sizeLabel(held)} memories of one end user`, value: erased.seconds, unit: 's' });
  rows.push({ metric: 'ingest_during_erasure', condition: 'another user: completed / accepted while the erasure ran', value: erased.otherAccepted ? erased.otherCompleted / erased.otherAccepted : null, unit: '' });
  print(`  ${erased.forgotten} memories forgotten in ${erased.seconds.toFixed(1)} s; meanwhile ${erased.otherCompleted} of another user's ${erased.otherAccepted} accepted memories completed`);

  const { restart, otherApiKey } = target;
  if (restart && otherApiKey) {
    // Before the edge's flood, whose backlog would be what the overload's admission sees.
    const overload = await overloadScenario({ ...target, restart, otherApiKey }, { sustainablePerS: pipeline.perS, passMs, seconds: plan.overloadSeconds, aloneSeconds: plan.freshnessSeconds, runId, nextSeed, heapPerMemoryMb: target.dataDir === null ? 0 : heapPerMemoryMb(liveHeaps) }, print);
    const { loud, warmUp, quietAlone, quietLoaded } = overload.figures;
    stored += loud.accepted + warmUp.accepted + quietAlone.accepted + quietLoaded.accepted;
    figures['overload'] = overload.figures;
    rows.push(...overload.rows);
  } else {
    print('\n[overload] not measured: it restarts the service with quotas, which a service found at --url cannot be');
  }

  const levels: EdgeLevel[] = [];
  for (const connections of plan.edgeConnections) {
    print(`\n[edge_accept_rps] text ingests for ${plan.edgeSeconds} s over ${connections} connections (autocannon)`);
    const level = await runLoad({ kind: 'edge', ...service, seed: nextSeed(), connections, seconds: plan.edgeSeconds, endUserIds: Array.from({ length: 8 }, (_, i) => `edge-${runId}-${i}`) }, print);
    print(`  ${level.accepted} accepted (${level.acceptedPerS.toFixed(0)}/s), ${level.refused} refused`);
    levels.push(level);
    rows.push({ metric: 'edge_accept_rps', condition: `${connections} connections`, value: level.acceptedPerS, unit: 'req/s', latency: level.latency });
  }
  const best = levels.reduce((a, b) => (b.acceptedPerS > a.acceptedPerS ? b : a));
  figures['edge_accept_rps'] = { best: best.acceptedPerS, bestConnections: best.connections, levels };
  rows.push({ metric: 'edge_accept_rps', condition: `best (${best.connections} connections)`, value: best.acceptedPerS, unit: 'req/s', latency: best.latency });
  return { figures, rows };
}

/** What one more stored memory adds to the service's live heap, from the first and last footprints of the run; null with fewer than two. */
function heapPerMemoryMb(points: Array<{ memories: number; mb: number }>): number | null {
  const first = points[0];
  const last = points.at(-1);
  return first && last && last.memories > first.memories ? Math.max(0, (last.mb - first.mb) / (last.memories - first.memories)) : null;
}
