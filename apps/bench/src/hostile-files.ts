import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { percentile } from '@memory/evaluation';
import { residentMb } from '@memory/platform';
import { caller, hostilePdf, otherPartitionUser, pixelBombPng, probeTextFreshness, ServiceProcess, TEST_KEYS, textFreshnessMs, uploadDocument, waitForJob } from '@memory/testing';
import { runMain } from './run-main.js';

const USAGE = `npm run bench:hostile -- [--pdfs 3] [--pages 12] [--operations 250000] [--bombs 1]
    [--seconds 20] [--every-ms 250] [--file-time-limit-ms 10000] [--json out.json]

Another end user's text freshness (accept -> job Completed, probed every --every-ms) on a fresh embedded service,
first for --seconds with nothing else running, then while one end user's hostile files are read: --pdfs PDFs of
--pages pages of --operations path operations each and no text layer (every page is rendered for OCR), and
--bombs decompression-bomb PNGs (7000x7000, 16-bit, interlaced). Prints probes, max and p95 of each phase, how
the hostile jobs ended, the service's peak RSS and the load average. --file-time-limit-ms is passed to the
service as MEMORY_FILE_TIME_LIMIT_MS, so a run takes minutes, not the default limit's hours.`;

const MEMORYD_ENTRY = fileURLToPath(new URL('../../memoryd/src/main.ts', import.meta.url));

interface Phase {
  phase: string;
  probes: number;
  maxMs: number;
  p95Ms: number;
  p50Ms: number;
  load: number[];
}

function parse(argv: readonly string[]) {
  const options = { pdfs: 3, pages: 12, operations: 250_000, bombs: 1, seconds: 20, everyMs: 250, fileTimeLimitMs: 10_000, json: null as string | null, help: false };
  const numeric = { '--pdfs': 'pdfs', '--pages': 'pages', '--operations': 'operations', '--bombs': 'bombs', '--seconds': 'seconds', '--every-ms': 'everyMs', '--file-time-limit-ms': 'fileTimeLimitMs' } as const;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag === '--help' || flag === '-h') options.help = true;
    else if (flag === '--json') options.json = argv[++i] ?? null;
    else if (flag in numeric) {
      const n = Number(argv[++i]);
      if (!Number.isInteger(n) || n < 0 || n > 10_000_000) throw new Error(`${flag} takes a whole number\n\n${USAGE}`);
      options[numeric[flag as keyof typeof numeric]] = n;
    } else throw new Error(`unknown option ${flag}\n\n${USAGE}`);
  }
  return options;
}

function summary(phase: string, freshness: number[]): Phase {
  return { phase, probes: freshness.length, maxMs: Math.max(...freshness), p95Ms: percentile(freshness, 95)!, p50Ms: percentile(freshness, 50)!, load: loadavg() };
}

async function main(): Promise<number> {
  const options = parse(process.argv.slice(2));
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  const service = new ServiceProcess({ entry: MEMORYD_ENTRY, startTimeoutMs: 180_000, env: { MEMORY_FILE_TIME_LIMIT_MS: String(options.fileTimeLimitMs) } });
  await service.start();
  let peakRssMb = 0;
  const sampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, residentMb(service.pid) ?? 0)), 200);
  try {
    const hostileUser = { tenantId: 'acme', endUserId: 'mallory' };
    const textUser = otherPartitionUser('globex', 'tess', [hostileUser]);
    const tess = caller(service, TEST_KEYS.globex, textUser);
    const mallory = caller(service, TEST_KEYS.acme, hostileUser.endUserId);
    console.log(`service on ${service.url}; the text user ${textUser} is on another partition than the hostile user`);
    await textFreshnessMs(tess, 'Warm-up: the allotment committee meets on the first Tuesday of the month.');

    const quietUntil = Date.now() + options.seconds * 1000;
    const phases = [summary('nothing else running', await probeTextFreshness(tess, { everyMs: options.everyMs, going: () => Date.now() < quietUntil }))];

    console.log(`writing ${options.pdfs} PDFs of ${options.pages} pages x ${options.operations} path operations and ${options.bombs} pixel bombs ...`);
    const pdfs = Array.from({ length: options.pdfs }, (_, i) => hostilePdf({ pages: options.pages, operations: options.operations, seed: i + 1 }));
    const bombs = await Promise.all(Array.from({ length: options.bombs }, () => pixelBombPng()));
    const started = Date.now();
    const jobs: string[] = [];
    for (const [i, pdf] of pdfs.entries()) jobs.push((await uploadDocument(service, hostileUser.endUserId, pdf, `lines-${i}.pdf`)).body.jobId);
    for (const bomb of bombs) jobs.push((await mallory.post('/v1/memory/image', { imageData: `data:image/png;base64,${bomb.toString('base64')}` })).body.jobId);
    let settled = false;
    const hostile = Promise.all(jobs.map((jobId) => waitForJob(mallory, jobId, 6 * 3_600_000))).finally(() => (settled = true));
    const during = await probeTextFreshness(tess, { everyMs: options.everyMs, going: () => !settled });
    phases.push(summary('while the hostile files are read', during));
    const ended = await hostile;
    // When the slow probes were sent, from the first upload: one probe is sent every --every-ms.
    const slowest = during.map((ms, i) => ({ ms, at: (i * options.everyMs) / 1000 })).sort((a, b) => b.ms - a.ms).slice(0, 5);
    console.log(`slowest probes: ${slowest.map(({ ms, at }) => `${ms.toFixed(0)} ms sent at +${at.toFixed(1)} s`).join(', ')}`);

    console.log('\nphase                              probes   max ms   p95 ms   p50 ms   load average (1, 5, 15 min)');
    for (const row of phases) {
      console.log(`${row.phase.padEnd(34)} ${String(row.probes).padStart(6)} ${row.maxMs.toFixed(0).padStart(8)} ${row.p95Ms.toFixed(0).padStart(8)} ${row.p50Ms.toFixed(0).padStart(8)}   ${row.load.map((l) => l.toFixed(2)).join(' ')}`);
    }
    const outcomes = ended.map((job) => `${job.status}${job.error ? ` ${job.error.code}` : ''}`);
    console.log(`hostile jobs (${((Date.now() - started) / 1000).toFixed(0)} s): ${outcomes.join(', ')}; service peak RSS ${peakRssMb.toFixed(0)} MB (file workers not included)`);
    if (options.json) writeFileSync(options.json, `${JSON.stringify({ options, phases, outcomes, peakRssMb }, null, 2)}\n`);
    return 0;
  } finally {
    clearInterval(sampler);
    await service.stop();
  }
}

runMain(main);
