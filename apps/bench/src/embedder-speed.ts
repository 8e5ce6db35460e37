import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbedder, readServiceConfig } from '@memory/composition';
import { DEFAULT_ONNX_MODEL, ONNX_MODELS, modelFiles, resolveModelDir } from '@memory/embedder-onnx';
import { percentile, sentenceGenerator } from '@memory/evaluation';
import { createLogger, seededRandom } from '@memory/platform';
import type { Embedder } from '@memory/ports';
import { runMain } from './run-main.js';

const USAGE = `npm run bench:embedders -- [--models a,b] [--passages 300] [--queries 200] [--json out.json]

Embedding speed of each installed local model (libs/adapters/embedder-onnx/models.json), one model at a time,
opened as the service opens it (its worker thread, MEMORY_EMBED_THREADS) on a scratch data folder:
passages/s one text per call as the pipeline embeds, then query latency p50/p95 one query at a time, then the
latency of one passage (another end user's memory) while a caller keeps calls of 11 passages queued (one user's
flood: a partition's batch under the overload quotas), asked at random moments.
--models defaults to every model whose files are installed.`;

interface Row {
  model: string;
  passagesPerS: number;
  queryP50Ms: number;
  queryP95Ms: number;
  besideBatchP50Ms: number;
  besideBatchP95Ms: number;
}

/** Passages per call of the flooding caller: the in-flight bound of one key under `npm run bench`'s overload quotas. */
const FLOOD_BATCH = 11;

function parse(argv: readonly string[]) {
  const options = { models: [] as string[], passages: 300, queries: 200, json: null as string | null, help: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${flag} needs a value\n\n${USAGE}`);
      return next;
    };
    const count = () => {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 1 || n > 100_000) throw new Error(`${flag} takes a whole number from 1 to 100000`);
      return n;
    };
    if (flag === '--help' || flag === '-h') options.help = true;
    else if (flag === '--models') options.models = value().split(',').map((name) => name.trim()).filter(Boolean);
    else if (flag === '--passages') options.passages = count();
    else if (flag === '--queries') options.queries = count();
    else if (flag === '--json') options.json = value();
    else throw new Error(`unknown option ${flag}\n\n${USAGE}`);
  }
  const unknown = options.models.filter((name) => !ONNX_MODELS.has(name));
  if (unknown.length) throw new Error(`unknown model ${unknown.join(', ')}; models.json has ${[...ONNX_MODELS.keys()].join(', ')}`);
  return options;
}

async function measure(model: string, passages: readonly string[], queries: readonly string[]): Promise<Row> {
  const dataDir = mkdtempSync(join(tmpdir(), 'embedder-speed-'));
  const config = readServiceConfig({ ...process.env, MEMORY_DATA_DIR: dataDir, MEMORY_EMBEDDER: 'onnx', MEMORY_EMBEDDING_MODEL: model }, 'embedded');
  const embedder = await openEmbedder(config, createLogger({ component: 'bench' }, 'warn'));
  try {
    // The first calls pay for graph optimisation and allocations, which the service pays once at start.
    for (const text of passages.slice(0, 5)) await embedder.embed([text], 'passage');
    const started = performance.now();
    for (const text of passages) await embedder.embed([text], 'passage');
    const passagesPerS = passages.length / ((performance.now() - started) / 1000);
    const latencies: number[] = [];
    for (const text of queries) {
      const asked = performance.now();
      await embedder.embed([text], 'query');
      latencies.push(performance.now() - asked);
    }
    const beside = await besideAFlood(embedder, passages, queries.length);
    return { model, passagesPerS, queryP50Ms: percentile(latencies, 50)!, queryP95Ms: percentile(latencies, 95)!, besideBatchP50Ms: percentile(beside, 50)!, besideBatchP95Ms: percentile(beside, 95)! };
  } finally {
    await embedder.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** One-passage calls at random moments (seeded) while another caller keeps FLOOD_BATCH-passage calls queued. */
async function besideAFlood(embedder: Embedder, passages: readonly string[], calls: number): Promise<number[]> {
  let flooding = true;
  const flood = (async () => {
    for (let i = 0; flooding; i += FLOOD_BATCH) await embedder.embed(Array.from({ length: FLOOD_BATCH }, (_, k) => passages[(i + k) % passages.length]!), 'passage');
  })();
  const random = seededRandom(29);
  const latencies: number[] = [];
  try {
    for (let i = 0; i < calls; i++) {
      await new Promise((resolve) => setTimeout(resolve, random() * 100));
      const asked = performance.now();
      await embedder.embed([passages[i % passages.length]!], 'passage');
      latencies.push(performance.now() - asked);
    }
  } finally {
    flooding = false;
    await flood;
  }
  return latencies;
}

async function main(): Promise<number> {
  const options = parse(process.argv.slice(2));
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  const installed = (name: string) => existsSync(modelFiles(resolveModelDir(ONNX_MODELS.get(name)!, process.env)).onnx);
  const models = options.models.length ? options.models : [...ONNX_MODELS.keys()].filter(installed);
  const missing = models.filter((name) => !installed(name));
  if (missing.length) {
    console.error(`not installed: ${missing.join(', ')} (MEMORY_EMBEDDING_MODEL=<name> node deploy/scripts/install-model.mjs)`);
    return 1;
  }
  // The same seeded texts for every model.
  const texts = sentenceGenerator(17);
  const passages = Array.from({ length: options.passages }, () => texts.memory());
  const queries = Array.from({ length: options.queries }, () => texts.query());
  const rows: Row[] = [];
  console.log(`${options.passages} passages one per call, then ${options.queries} queries one at a time, per model`);
  console.log(`${'model'.padEnd(30)} passages/s   query p50 ms   query p95 ms   beside a flood p50 / p95 ms`);
  for (const model of models) {
    const row = await measure(model, passages, queries);
    rows.push(row);
    const mark = model === DEFAULT_ONNX_MODEL ? ' (default)' : '';
    console.log(`${(model + mark).padEnd(30)} ${row.passagesPerS.toFixed(1).padStart(10)} ${row.queryP50Ms.toFixed(1).padStart(14)} ${row.queryP95Ms.toFixed(1).padStart(14)}   ${row.besideBatchP50Ms.toFixed(1).padStart(10)} / ${row.besideBatchP95Ms.toFixed(1)}`);
  }
  if (options.json) writeFileSync(options.json, `${JSON.stringify(rows, null, 2)}\n`);
  return 0;
}

runMain(main);
