import { fork, type ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { documentTooComplex } from '@memory/document-text';
import { imageTooComplex, type ImageFeatures, type OcrResult } from '@memory/image-analysis';
import { ConfigError, fromErrorRecord, loaderFlags, MemoryServiceError, type LimitPassed, type Logger } from '@memory/platform';
import type { TaskMessage, WorkerMessage } from './protocol.js';
import type { DocumentPages, FileTaskKind, FileTasks, ImageReading } from './tasks.js';
import { processUsage } from './usage.js';

export interface FilePoolOptions {
  /** Worker processes, each reading one file at a time on about one core. */
  workers: number;
  /** CPU time one file may use, all its worker's threads together (wall time where there is no /proc). */
  timeLimitMs: number;
  /** Resident memory a file may add to its worker's (what the worker held when it took the file, OCR models included, is not counted). */
  memoryLimitMb: number;
  logger: Logger;
}

/** Reading the files of the pipeline, each in a worker process bounded in CPU time and memory. */
export interface FilePool {
  /** The text of each page of a PDF: its text layer, or OCR of the rendered page. DOCUMENT.TOO_COMPLEX past a limit. */
  readDocument(bytes: Uint8Array): Promise<DocumentPages>;
  /** Visual features and OCR text of an image. IMAGE.TOO_COMPLEX past a limit. */
  readImage(bytes: Uint8Array, options: { now: number }): Promise<ImageReading>;
  /** Visual features only (search by image). */
  imageFeatures(bytes: Uint8Array, options: { now: number }): Promise<ImageFeatures>;
  /** OCR only (search by image). */
  imageText(bytes: Uint8Array): Promise<OcrResult>;
  /** Fails what is queued or running with FILES.CLOSED (retriable) and stops the workers. */
  close(): Promise<void>;
}

/** How often a busy worker's usage is read: a file passes a limit by at most about this much. */
const SAMPLE_MS = 50;
/**
 * On a machine too loaded to give a worker its CPU, a file still fails after this many times its CPU limit in
 * wall time, so a partition never waits longer than that for one file.
 */
const WALL_FACTOR = 4;
const STDERR_TAIL = 4096;
/**
 * Workers run at a lower CPU priority (nice 10: about a tenth of the CPU of a normal process they compete with),
 * so on a busy machine the kernel serves the service's own threads first: the text path, the HTTP edge, the model.
 */
const WORKER_NICENESS = 10;
/** How many files that passed a limit are remembered (by digest), so the same bytes fail at once the next time. */
const REMEMBERED_FAILURES = 256;

interface Job {
  kind: FileTaskKind;
  /** The task kind and a digest of the bytes: what a file that passed a limit is remembered by. */
  digest: string;
  input: FileTasks[FileTaskKind]['input'];
  resolve: (output: unknown) => void;
  reject: (error: Error) => void;
}

interface Running extends Job {
  id: number;
  startedAt: number;
  /** The worker's CPU time when the file was handed over; null without /proc. */
  startCpuMs: number | null;
  /** The worker's resident memory when the file was handed over: the file's budget is what it adds to it. */
  startRssMb: number;
}

interface Worker {
  child: ChildProcess;
  ready: boolean;
  job: Running | null;
  monitor?: NodeJS.Timeout;
  stderr: string;
}

export function createFilePool(options: FilePoolOptions): FilePool {
  validate(options);
  const { logger } = options;
  const queue: Job[] = [];
  const workers = new Set<Worker>();
  let nextId = 1;
  let closed = false;
  /**
   * When a batch fails, the stage runner reads its records again one by one; the same bytes would pass the same
   * limit again, so a file that did fails at once, instead of costing the limit a second time.
   */
  const passedLimit = new Map<string, LimitPassed>();

  const submit = async <K extends FileTaskKind>(kind: K, input: FileTasks[K]['input']): Promise<FileTasks[K]['output']> => {
    // WebCrypto digests off the event loop, unlike createHash: a 50 MB PDF is not hashed on the service's thread.
    const digest = `${kind}:${Buffer.from(await crypto.subtle.digest('SHA-256', input.bytes)).toString('base64')}`;
    const remembered = passedLimit.get(digest);
    if (remembered) throw tooComplex(kind, remembered);
    return new Promise((resolve, reject) => {
      if (closed) return reject(closedError());
      queue.push({ kind, digest, input, resolve: resolve as (output: unknown) => void, reject });
      dispatch();
    });
  };

  const dispatch = () => {
    for (const worker of workers) {
      if (queue.length === 0) return;
      if (worker.ready && worker.job === null) start(worker, queue.shift()!);
    }
    const starting = [...workers].filter((worker) => !worker.ready).length;
    for (let i = starting; i < queue.length && workers.size < options.workers; i++) spawn();
  };

  const start = (worker: Worker, job: Job) => {
    const pid = worker.child.pid!;
    const usage = processUsage(pid);
    const running: Running = { ...job, id: nextId++, startedAt: Date.now(), startCpuMs: usage?.cpuMs ?? null, startRssMb: usage?.rssMb ?? 0 };
    worker.job = running;
    setHeld(worker.child, true);
    // A worker that just died cannot take it; its exit fails the job like any other death mid-file.
    worker.child.send({ id: running.id, kind: job.kind, input: job.input } satisfies TaskMessage, (error) => error && logger.warn('handing a file to its worker failed', { error: error.message }));
    worker.monitor = setInterval(() => check(worker, running), SAMPLE_MS);
  };

  const check = (worker: Worker, job: Running) => {
    if (worker.job !== job) return;
    const wallMs = Date.now() - job.startedAt;
    const usage = processUsage(worker.child.pid!);
    if (usage === null || job.startCpuMs === null) {
      if (wallMs > options.timeLimitMs) stopOver(worker, { kind: 'time', ms: options.timeLimitMs });
      return;
    }
    if (usage.cpuMs - job.startCpuMs > options.timeLimitMs || wallMs > options.timeLimitMs * WALL_FACTOR) {
      stopOver(worker, { kind: 'time', ms: options.timeLimitMs });
    } else if (usage.rssMb - job.startRssMb > options.memoryLimitMb) {
      stopOver(worker, { kind: 'memory', mb: options.memoryLimitMb });
    }
  };

  /** The file passed a limit: its job fails, its worker is killed (native code cannot be interrupted otherwise). */
  const stopOver = (worker: Worker, limit: LimitPassed) => {
    const job = finish(worker);
    if (!job) return;
    logger.warn('a file passed a limit of the file workers; its worker is replaced', { task: job.kind, limit: limit.kind, wallMs: Date.now() - job.startedAt });
    // Out of the pool before it is gone, so no file is handed to it; the replacement starts loading at once.
    workers.delete(worker);
    worker.child.kill('SIGKILL');
    passedLimit.delete(job.digest);
    passedLimit.set(job.digest, limit);
    if (passedLimit.size > REMEMBERED_FAILURES) passedLimit.delete(passedLimit.keys().next().value!);
    job.reject(tooComplex(job.kind, limit));
    if (!closed) spawn();
  };

  /** Detaches the running job from its worker; null when it was already settled. */
  const finish = (worker: Worker): Running | null => {
    const job = worker.job;
    clearInterval(worker.monitor);
    worker.job = null;
    setHeld(worker.child, false);
    return job;
  };

  const spawn = () => {
    const entry = fileURLToPath(new URL(`./worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url));
    const child = fork(entry, [], {
      execArgv: [...loaderFlags(entry), `--max-old-space-size=${options.memoryLimitMb}`],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      // libvips would start a thread per core for each image; one worker is meant to take one core.
      env: { ...process.env, VIPS_CONCURRENCY: '1' },
    });
    if (child.pid !== undefined) {
      try {
        setPriority(child.pid, WORKER_NICENESS);
      } catch (error) {
        logger.warn('the file worker keeps the normal CPU priority', { error: (error as Error).message });
      }
    }
    const worker: Worker = { child, ready: false, job: null, stderr: '' };
    workers.add(worker);
    setHeld(child, false);
    child.stderr?.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      worker.stderr = (worker.stderr + chunk.toString()).slice(-STDERR_TAIL);
    });
    child.on('message', (message: WorkerMessage) => {
      if (message.type === 'ready') {
        worker.ready = true;
        dispatch();
        return;
      }
      if (worker.job?.id !== message.id) return;
      const job = finish(worker)!;
      if (message.type === 'result') job.resolve(message.output);
      else job.reject(fromErrorRecord(message.error));
      dispatch();
    });
    child.on('error', (error) => logger.error('a file worker failed', { error: error.message }));
    child.on('exit', (code, signal) => {
      // A worker stopped for a limit has left the pool and been replaced already.
      if (!workers.delete(worker)) return;
      const job = finish(worker);
      if (closed) return job?.reject(closedError());
      if (job) {
        // It died on this file (V8's heap limit, a native crash): the file fails, as it would on the next try.
        const limit: LimitPassed = /heap out of memory/i.test(worker.stderr) ? { kind: 'memory', mb: options.memoryLimitMb } : { kind: 'crash', signal };
        logger.warn('a file worker stopped while reading a file; it is replaced', { task: job.kind, code, signal });
        job.reject(tooComplex(job.kind, limit));
      } else if (!worker.ready) {
        // It could not even start: failing what waits beats respawning in a loop.
        const error = new MemoryServiceError('FILES.UNAVAILABLE', `a file worker could not start (exit ${code ?? signal}): ${worker.stderr.trim().split('\n').pop() ?? ''}`, { retriable: true });
        logger.error('a file worker could not start', { code, signal, error: error.message });
        for (const waiting of queue.splice(0)) waiting.reject(error);
        return;
      }
      // A replacement starts at once, so the next file does not wait for the OCR models to load.
      spawn();
      dispatch();
    });
  };

  return {
    readDocument: (bytes) => submit('document', { bytes }),
    readImage: (bytes, { now }) => submit('image', { bytes, now }),
    imageFeatures: (bytes, { now }) => submit('imageFeatures', { bytes, now }),
    imageText: (bytes) => submit('imageText', { bytes }),
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(closedError());
      await Promise.all(
        [...workers].map((worker) => new Promise<void>((resolve) => {
          if (worker.child.exitCode !== null || worker.child.signalCode !== null) return resolve();
          worker.child.once('exit', () => resolve());
          worker.child.kill('SIGKILL');
        })),
      );
    },
  };
}

function tooComplex(kind: FileTaskKind, limit: LimitPassed): Error {
  return kind === 'document' ? documentTooComplex(limit) : imageTooComplex(limit);
}

function closedError(): MemoryServiceError {
  return new MemoryServiceError('FILES.CLOSED', 'the file workers are shutting down; the file is read again after a restart', { retriable: true });
}

/** A busy worker keeps the service's event loop alive (its answer is awaited); an idle one does not. */
function setHeld(child: ChildProcess, held: boolean): void {
  const channel = child.channel as { ref(): void; unref(): void } | null | undefined;
  if (held) {
    child.ref();
    channel?.ref();
  } else {
    child.unref();
    channel?.unref();
  }
}

function validate(options: FilePoolOptions): void {
  const bad = (['workers', 'timeLimitMs', 'memoryLimitMb'] as const).filter((key) => !Number.isSafeInteger(options[key]) || options[key] < 1);
  if (bad.length) throw new ConfigError(`file pool options must be positive whole numbers: ${bad.join(', ')}`);
}
