import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  benchmarkQuestions,
  conversationTurns,
  percentile,
  readLocomoDir,
  turnMemoryText,
  RETRIEVAL_CATEGORIES,
  type LocomoFile,
  type QuestionSet,
} from '@memory/evaluation';
import { BenchApi } from './api.js';
import { UsageError, USAGE, parseBenchArgs, type BenchOptions } from './args.js';
import { askQuestions, type Answers } from './ask.js';
import { bm25Baseline, denseBaseline } from './baselines.js';
import { absentEngines, startDistributedService } from './distributed-service.js';
import { postTurns, waitForJobs } from './ingest.js';
import { planKeepDir, writeManifest, type KeepPlan, type Manifest, type ManifestFile } from './keep.js';
import type { Print } from './progress.js';
import { buildReport, reportText, writeReportJson } from './report.js';
import { runMain } from './run-main.js';
import { ServiceStartError, remoteService, startEmbeddedService, type Target } from './service.js';

/**
 * npm run bench:locomo -- --data <dir>: evidence recall@k of the service's search on LoCoMo conversations, next to
 * plain BM25 and dense-only retrieval over the same turns, under each mode asked for. The logic is in
 * @memory/evaluation; this is the wiring.
 */
async function main(argv: string[]): Promise<number> {
  const print: Print = (line) => process.stdout.write(line + '\n');
  const fail = (message: string, code = 1) => {
    process.stderr.write(`error: ${message}\n`);
    return code;
  };

  let options: BenchOptions;
  try {
    options = parseBenchArgs(argv);
  } catch (error) {
    if (error instanceof UsageError) return fail(`${error.message}\n\n${USAGE}`, 2);
    throw error;
  }
  if (options.help) {
    print(USAGE);
    return 0;
  }

  let files: LocomoFile[];
  try {
    files = readLocomoDir(options.data);
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
  const sets = files.map((file) => benchmarkQuestions(file.conversation));
  describeData(files, sets, print);
  if (sets.every((set) => set.questions.length === 0)) return fail(`no question of categories 1-4 in ${options.data} names an existing evidence turn: nothing to measure`);
  if (options.modes.includes('distributed')) {
    const absent = await absentEngines();
    if (absent.length > 0) return fail(`--modes distributed needs the engines; not answering:\n  ${absent.join('\n  ')}\nstart them with \`npm run engines:up\`, or leave distributed out of --modes`);
  }

  const runStarted = performance.now();
  let plan: KeepPlan | null = null;
  if (options.keep) {
    try {
      plan = planKeepDir(options.keep, files, options.url ?? 'embedded', print);
    } catch (error) {
      return fail(error instanceof Error ? error.message : String(error));
    }
  }
  const temporary: string[] = [];
  const tempDir = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    temporary.push(dir);
    return dir;
  };
  const removeTemporary = () => temporary.forEach((dir) => rmSync(dir, { recursive: true, force: true }));

  let running: Target | null = null;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      print(`${signal}: stopping the service${options.keep ? `; ${options.keep} keeps what was ingested so far, but will be ingested again` : ''}`);
      void (running?.stop() ?? Promise.resolve()).finally(() => {
        removeTemporary();
        process.exit(130);
      });
    });
  }

  // The service under each mode in turn, never two at once: they would share the cores and each other's latencies.
  const services: ServiceUnderTest[] = options.url
    ? [{ name: 'system', label: options.url, start: () => remoteService(options.url!, options.key!, print), keep: plan }]
    : options.modes.map((mode) =>
        mode === 'embedded'
          ? { name: 'system', label: 'embedded', start: () => startEmbeddedService(plan?.dataDir ?? tempDir('locomo-bench-'), print), keep: plan }
          : { name: 'distributed', label: 'distributed', start: () => startDistributedService(print), keep: null },
      );
  try {
    const maxK = Math.max(...options.ks);
    const measured: Measured[] = [];
    let modelDataDir: string | null = null;
    for (const service of services) {
      if (services.length > 1) print(`\n${service.label} mode`);
      let target: Target;
      try {
        target = running = await service.start();
      } catch (error) {
        if (error instanceof ServiceStartError) return fail(error.message);
        throw error;
      }
      try {
        measured.push(await measure(service, target, files, sets, maxK, options, print));
      } finally {
        if (target.dataDir || target.pid() !== null) print('stopping the service ...');
        await target.stop();
        running = null;
      }
      modelDataDir ??= target.dataDir;
    }

    const inputs = files.map((file, i) => ({
      turns: conversationTurns(file.conversation).map((turn) => ({ id: turn.diaId, text: turnMemoryText(turn) })),
      questions: sets[i]!.questions,
    }));
    print('');
    const bm25 = bm25Baseline(inputs, maxK);
    const dense = await denseBaseline(inputs, maxK, modelDataDir ?? tempDir('locomo-bench-model-'), options.keep, print);

    const report = buildReport(
      files.map((file, i) => ({ name: file.stem, questions: sets[i]!.questions })),
      measured.map((m) => ({ name: m.name, ranked: m.answers.ranked })),
      [
        { name: 'bm25', ranked: bm25.ranked },
        { name: 'dense', ranked: dense.ranked },
      ],
      options.ks,
    );
    print('');
    if (measured.length > 1) print('system = the service in the embedded mode, distributed = the same service in the distributed mode\n');
    print(reportText(report));
    print('');
    print('timings');
    const named = (m: Measured) => (measured.length > 1 ? `${m.name}: ` : '');
    for (const m of measured) print(`  ingest  ${named(m)}${m.ingestLine}`);
    for (const m of measured) print(`  search  ${named(m)}${searchLine(m.answers)}`);
    for (const note of [...bm25.notes, ...dense.notes]) print(`  ${note}`);
    print(`  total   ${((performance.now() - runStarted) / 1000).toFixed(0)} s`);
    if (options.json) {
      writeReportJson(options.json, report);
      print(`wrote ${options.json}`);
    }
    if (options.keep) print(`kept ${options.keep} (manifest.json${plan?.dataDir && !options.url ? ', data/' : ''}, dense vectors): run again with --keep ${options.keep} to skip ingestion`);
    return 0;
  } finally {
    removeTemporary();
  }
}

/** One service the benchmark measures: its row name in the report, how to reach it, and its --keep plan if any. */
interface ServiceUnderTest {
  name: string;
  label: string;
  start(): Promise<Target>;
  keep: KeepPlan | null;
}

interface Measured {
  name: string;
  answers: Answers;
  ingestLine: string;
}

/** Ingests the conversations into one service (unless its --keep folder already holds them) and asks every question. */
async function measure(service: ServiceUnderTest, target: Target, files: LocomoFile[], sets: QuestionSet[], maxK: number, options: BenchOptions, print: Print): Promise<Measured> {
  const api = new BenchApi(target.url, target.apiKey);
  let manifestFiles: ManifestFile[];
  let ingestLine: string;
  const reused = service.keep?.reuse;
  if (reused) {
    manifestFiles = files.map((file) => reused.files.find((entry) => entry.fileName === file.fileName)!);
    ingestLine = `skipped: reused the memories of run ${reused.runId} in ${options.keep}`;
  } else {
    ({ manifestFiles, ingestLine } = await ingest(api, files, options.concurrency, service.keep ? options.keep : null, target.identity, print));
  }
  const answers = await askQuestions(
    api,
    files.map((_, i) => ({ userId: manifestFiles[i]!.userId, questions: sets[i]!.questions, jobs: manifestFiles[i]!.jobs })),
    maxK,
    options.dynamicScoring,
    print,
  );
  return { name: service.name, answers, ingestLine };
}

function searchLine(answers: Answers): string {
  return (
    `${answers.latenciesMs.length} questions: p50 ${fmtMs(percentile(answers.latenciesMs, 50))}, p95 ${fmtMs(percentile(answers.latenciesMs, 95))}, ` +
    `max ${fmtMs(percentile(answers.latenciesMs, 100))}${answers.errors ? `, ${answers.errors} failed` : ''}` +
    (answers.untraced ? `, ${answers.untraced} hits not traced to a turn (no known payload.job_id)` : '') +
    `; centroid mode ${Object.entries(answers.centroidModes).sort(([a], [b]) => a.localeCompare(b)).map(([mode, n]) => `${mode} ${n}`).join(', ')}`
  );
}

async function ingest(api: BenchApi, files: LocomoFile[], concurrency: number, keep: string | null, identity: string, print: Print) {
  const runId = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const started = performance.now();
  const manifest: Manifest = { format: 'locomo-bench-manifest/1', complete: false, runId, service: identity, createdAt: new Date().toISOString(), completedAt: null, files: [] };
  manifest.files = await postTurns(api, files, runId, concurrency, print);
  const acceptedSeconds = (performance.now() - started) / 1000;
  // Written before waiting, so a run cut short leaves a record saying it is incomplete rather than nothing.
  if (keep) writeManifest(keep, manifest);
  const { failed } = await waitForJobs(api, manifest.files, print);
  const seconds = (performance.now() - started) / 1000;
  if (keep) writeManifest(keep, { ...manifest, complete: true, completedAt: new Date().toISOString() });
  const turns = manifest.files.reduce((n, f) => n + f.turns, 0);
  return {
    manifestFiles: manifest.files,
    ingestLine:
      `${turns} turns in ${seconds.toFixed(1)} s: ${(turns / seconds).toFixed(1)} turns/s end to end ` +
      `(all accepted after ${acceptedSeconds.toFixed(1)} s), ${failed} failed job${failed === 1 ? '' : 's'}`,
  };
}

function describeData(files: LocomoFile[], sets: QuestionSet[], print: Print): void {
  for (const [i, file] of files.entries()) {
    const set = sets[i]!;
    const turns = conversationTurns(file.conversation).length;
    print(
      `${file.fileName}: ${file.conversation.speakerA} & ${file.conversation.speakerB}, ${file.conversation.sessions.length} sessions, ${turns} turns, ` +
        `${set.questions.length} questions` +
        (set.skipped.length ? `, ${set.skipped.length} skipped (no valid evidence)` : '') +
        (set.droppedEvidence.length ? `, evidence ids dropped: ${set.droppedEvidence.map((d) => d.id).join(' ')}` : ''),
    );
  }
  const all = sets.flatMap((set) => set.questions);
  const perCategory = RETRIEVAL_CATEGORIES.map((c) => `${c}: ${all.filter((q) => q.category === c).length}`).join(', ');
  const skipped = sets.reduce((n, set) => n + set.skipped.length, 0);
  const adversarial = sets.reduce((n, set) => n + set.adversarial, 0);
  print(`${all.length} questions to ask (${perCategory}); ${skipped} skipped for lack of valid evidence; ${adversarial} adversarial (category 5) not asked`);
}

function fmtMs(ms: number | null): string {
  return ms === null ? '-' : `${ms.toFixed(0)} ms`;
}

runMain(() => main(process.argv.slice(2)));
