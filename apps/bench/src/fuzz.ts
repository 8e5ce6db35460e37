import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomInt } from 'node:crypto';
import { formatReport, runFuzz } from '@memory/fuzz';
import { residentMb } from '@memory/platform';
import { FUZZ_USAGE, parseFuzzArgs } from './fuzz-args.js';
import type { Print } from './progress.js';
import { commandOptions, runMain } from './run-main.js';
import { remoteService, startEmbeddedService, type Target } from './service.js';

const print: Print = (line) => process.stdout.write(`${line}\n`);

/** npm run fuzz: hostile requests to every route of the embedded service (or one at --url); exit 1 unless the run passes. */
async function main(): Promise<number> {
  const options = commandOptions(() => parseFuzzArgs(process.argv.slice(2), () => randomInt(1, 2 ** 31)), FUZZ_USAGE);
  if (typeof options === 'number') return options;
  const dataDir = options.url ? null : mkdtempSync(join(tmpdir(), 'memory-fuzz-'));
  let target: Target | null = null;
  try {
    target = options.url && options.key ? await remoteService(options.url, options.key, print) : await startEmbeddedService(dataDir!, print);
    const service = target;
    print(`fuzzing ${service.identity} with seed ${options.seed}`);
    const report = await runFuzz({
      url: service.url,
      apiKey: service.apiKey,
      requests: options.requests,
      seed: options.seed,
      ...(options.only ? { only: options.only } : {}),
      rssMb: () => residentMb(service.pid()),
      maxRssMb: options.maxRssMb,
      print,
    });
    const replay = (index: number) => `npm run fuzz -- --seed ${options.seed} --only ${index}${options.url ? ` --url ${options.url} --key <key>` : ''}`;
    for (const line of formatReport(report, replay)) print(line);
    if (options.json) writeFileSync(options.json, JSON.stringify(report, null, 2));
    return report.pass ? 0 : 1;
  } finally {
    await target?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

runMain(main);
