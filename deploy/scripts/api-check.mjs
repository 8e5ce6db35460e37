#!/usr/bin/env node
// npm run api:check: Schemathesis generates requests from GET /openapi.json against a fresh memoryd and fails on a
// 5xx, a status the document does not list for the operation, or a body that does not match its schema.
// Needs `st` (pip install schemathesis); extra arguments go to `st run`, e.g. --max-examples 100.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REQUEST_LIMITS } from '../../libs/http-api/src/limits.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const apiKey = 'api-check-key-0123456789abcdef';
// Fifteen examples an operation and a fixed seed; one worker, because Hypothesis's source parsing is not safe across
// threads on Python 3.11 (a run with two failed with "AST constructor recursion depth mismatch"). The README has the
// counts.
// A job's long poll may rightly hold a request for jobWaitMaxMs, longer than Schemathesis's 10 s default timeout,
// which would count a slow but correct answer as an error (and fail the run) on a loaded machine.
const requestTimeoutS = REQUEST_LIMITS.jobWaitMaxMs / 1000 + 15;
const defaults = ['--max-examples', '15', '--workers', '1', '--seed', '1', '--request-timeout', String(requestTimeoutS)];

if (spawnSync('st', ['--version'], { stdio: 'ignore' }).status !== 0) {
  console.error('api:check needs Schemathesis: pip install schemathesis==4.32.5 (the st command was not found)');
  process.exit(1);
}

const dataDir = mkdtempSync(join(tmpdir(), 'memory-api-check-'));
const service = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'apps/memoryd/src/main.ts'], {
  cwd: root,
  env: { ...process.env, PORT: '0', MEMORY_DATA_DIR: dataDir, MEMORY_API_KEYS: `${apiKey}:api-check`, MEMORY_LOG_LEVEL: process.env.MEMORY_LOG_LEVEL ?? 'warn' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
// memoryd writes into its data folder while it closes (a store marked for compaction is rewritten then), so the
// folder is removed once it has exited, not while it is still writing there.
const stop = async () => {
  if (service.exitCode === null && service.signalCode === null) {
    const exited = new Promise((resolve) => service.once('exit', resolve));
    service.kill('SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
};

const url = await new Promise((resolve, reject) => {
  let output = '';
  service.stdout.on('data', (chunk) => {
    output += chunk;
    const ready = / ready on (http:\/\/\S+)/.exec(output);
    if (ready) resolve(ready[1]);
  });
  service.once('exit', (code) => reject(new Error(`memoryd exited with ${code} before it was ready:\n${output}`)));
});

const st = spawn('st', ['run', `${url}/openapi.json`, '--header', `Authorization: Bearer ${apiKey}`, '--checks', 'not_a_server_error,status_code_conformance,response_schema_conformance', '--no-color', ...defaults, ...process.argv.slice(2)], {
  cwd: dataDir,
  stdio: 'inherit',
});
const code = await new Promise((resolve) => st.once('exit', (status) => resolve(status ?? 1)));
await stop();
process.exit(code);
