import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

export const KEYS = {
  acme: 'acme-key-0123456789abcdef',
  globex: 'globex-key-0123456789abcdef',
};

/** A memoryd process on a fresh (or given) data dir and a free port, started the way `npm start` starts it. */
export class ServiceProcess {
  url = '';
  private child: ChildProcess | null = null;
  private output = '';

  constructor(readonly dataDir: string = mkdtempSync(join(tmpdir(), 'memoryd-e2e-'))) {}

  async start(extraEnv: Record<string, string> = {}): Promise<void> {
    this.output = '';
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', MAIN], {
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        MEMORY_DATA_DIR: this.dataDir,
        MEMORY_API_KEYS: `${KEYS.acme}:acme,${KEYS.globex}:globex`,
        MEMORY_LOG_LEVEL: process.env['MEMORY_LOG_LEVEL'] ?? 'warn',
        MEMORY_RETRY_INITIAL_MS: '20',
        ...extraEnv,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout!.on('data', (d: Buffer) => { this.output += d.toString(); });
    child.stderr!.on('data', (d: Buffer) => { this.output += d.toString(); });
    this.url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`memoryd did not start in 90 s:\n${this.output}`)), 90_000);
      const onData = () => {
        const m = /ready on (http:\/\/\S+)/.exec(this.output);
        if (m) { clearTimeout(timer); resolve(m[1]!); }
      };
      child.stdout!.on('data', onData);
      child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`memoryd exited with ${code}:\n${this.output}`)); });
    });
  }

  /** Graceful stop (SIGTERM) and wait for exit. */
  async stop(): Promise<void> {
    await this.signal('SIGTERM');
  }

  /** kill -9: no chance to flush or close anything. */
  async kill(): Promise<void> {
    await this.signal('SIGKILL');
  }

  logs(): string {
    return this.output;
  }

  cleanup(): void {
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  private async signal(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    await exited;
    this.child = null;
  }
}

export interface Caller {
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
}

/** HTTP calls as one tenant (API key) and one end user. */
export function caller(service: ServiceProcess, apiKey: string | null, endUserId: string | null): Caller {
  const headers = (extra: Record<string, string> = {}) => ({
    ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
    ...(endUserId ? { 'x-end-user-id': endUserId } : {}),
    ...extra,
  });
  const send = async (method: string, path: string, body: unknown, extra?: Record<string, string>) => {
    const res = await fetch(service.url + path, {
      method,
      headers: body === undefined ? headers(extra) : headers({ 'content-type': 'application/json', ...extra }),
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  return {
    post: (path, body, extra) => send('POST', path, body, extra),
    get: (path, extra) => send('GET', path, undefined, extra),
  };
}

/** Polls a job until it is Completed or Failed. */
export async function waitForJob(api: Caller, jobId: string, timeoutMs = 60_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api.get(`/v1/jobs/${jobId}`);
    if (res.status === 200 && (res.body.status === 'Completed' || res.body.status === 'Failed')) return res.body;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${JSON.stringify(res.body)} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until every consumer group has processed everything in the log (readiness reports lag 0 twice in a row). */
export async function waitForDrain(service: ServiceProcess, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let drainedOnce = false;
  for (;;) {
    const res = await caller(service, null, null).get('/health/ready');
    const lag = (res.body?.lag ?? {}) as Record<string, number>;
    const drained = res.status === 200 && Object.values(lag).every((n) => n === 0);
    if (drained && drainedOnce) return;
    drainedOnce = drained;
    if (Date.now() > deadline) throw new Error(`pipeline not drained after ${timeoutMs} ms: ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
