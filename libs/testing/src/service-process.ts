import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loaderFlags } from '@memory/platform';

/** The API keys every end-to-end test starts a service with: two tenants. */
export const TEST_KEYS = {
  acme: 'acme-key-0123456789abcdef',
  globex: 'globex-key-0123456789abcdef',
};

export interface ServiceProcessOptions {
  /** The entry point, run the way its npm script runs it: TypeScript through tsx, as `npm start` does; JavaScript as it is. */
  entry: string;
  args?: string[];
  /** Matches the line that says the process is ready; its first group is the URL. */
  readyLine?: RegExp;
  dataDir?: string;
  env?: Record<string, string>;
  startTimeoutMs?: number;
}

/** The service processes running now, whose output a failed test shows. */
const running = new Set<ServiceProcess>();

// A failed test shows the last lines of every service process then running (warnings and errors at the tests' log
// level): a 503 in CI is otherwise a status without its cause. Registered as mocha's root hook when loaded by mocha.
if (typeof globalThis.afterEach === 'function') {
  globalThis.afterEach(function () {
    if (this.currentTest?.state !== 'failed') return;
    for (const service of running) process.stderr.write(`\n--- last output of ${service.describe()} ---\n${service.logs().split('\n').slice(-60).join('\n')}\n---\n`);
  });
}

/** A service process on a fresh (or given) data dir and a free port, started as a user would start it. */
export class ServiceProcess {
  url = '';
  readonly dataDir: string;
  private child: ChildProcess | null = null;
  private output = '';
  private stopping = false;

  constructor(private readonly options: ServiceProcessOptions) {
    this.dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'memory-e2e-'));
  }

  async start(extraEnv: Record<string, string> = {}): Promise<void> {
    this.output = '';
    const readyLine = this.options.readyLine ?? /ready on (http:\/\/\S+)/;
    const timeoutMs = this.options.startTimeoutMs ?? 90_000;
    const child = spawn(process.execPath, [...loaderFlags(this.options.entry), this.options.entry, ...(this.options.args ?? [])], {
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        MEMORY_DATA_DIR: this.dataDir,
        MEMORY_API_KEYS: `${TEST_KEYS.acme}:acme,${TEST_KEYS.globex}:globex`,
        MEMORY_LOG_LEVEL: process.env['MEMORY_LOG_LEVEL'] ?? 'warn',
        MEMORY_RETRY_INITIAL_MS: '20',
        ...this.options.env,
        ...extraEnv,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    running.add(this);
    child.once('exit', () => running.delete(this));
    child.stdout!.on('data', (d: Buffer) => { this.output += d.toString(); });
    child.stderr!.on('data', (d: Buffer) => { this.output += d.toString(); });
    // A service that dies under a test shows up as refused connections; say why it died, with its last words.
    child.once('exit', (code, signal) => {
      if (this.child === child && !this.stopping) {
        process.stderr.write(`\n${this.options.entry} exited unexpectedly (${signal ?? `code ${code}`}); its last output:\n${this.output.split('\n').slice(-40).join('\n')}\n`);
      }
    });
    this.url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.options.entry} did not start in ${timeoutMs / 1000} s:\n${this.output}`)), timeoutMs);
      const onData = () => {
        const m = readyLine.exec(this.output);
        if (m) { clearTimeout(timer); child.stdout!.off('data', onData); resolve(m[1] ?? ''); }
      };
      child.stdout!.on('data', onData);
      child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`${this.options.entry} exited with ${code}:\n${this.output}`)); });
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

  /** The running process's id (for reading its memory use), null when it is not running. */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  logs(): string {
    return this.output;
  }

  describe(): string {
    return [this.options.entry.split('/').slice(-3).join('/'), ...(this.options.args ?? [])].join(' ');
  }

  cleanup(): void {
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  private async signal(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    this.stopping = true;
    child.kill(signal);
    await exited;
    this.stopping = false;
    this.child = null;
  }
}

/** A service process as the shared scenarios drive it: started by them, stopped and its data removed after. */
export function underTest(service: ServiceProcess): { readonly url: string; start(): Promise<void>; stop(): Promise<void>; storedBlobs(): Promise<number>; bytesAtRest(): Promise<Buffer> } {
  return {
    get url() {
      return service.url;
    },
    // The embedded blob store keeps files (and partial uploads) under <data dir>/blobs.
    storedBlobs: async () => countFiles(join(service.dataDir, 'blobs')),
    bytesAtRest: async () => {
      await service.stop();
      const bytes = Buffer.concat(filesUnder(service.dataDir).map((file) => readFileSync(file)));
      await service.start();
      return bytes;
    },
    start: () => service.start(),
    stop: async () => {
      await service.stop();
      service.cleanup();
    },
  };
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]));
}

function countFiles(dir: string): number {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir, { withFileTypes: true }).reduce((n, entry) => n + (entry.isDirectory() ? countFiles(join(dir, entry.name)) : 1), 0);
}
