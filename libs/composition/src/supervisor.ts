import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface ProcessSpec {
  /** Prefix of its output lines, e.g. 'edge' or 'enricher'. */
  name: string;
  command: string;
  args: string[];
  env: Record<string, string | undefined>;
}

export interface Supervisor {
  /** Starts a process and resolves with the URL of its ready line (`... ready on <url>`). */
  start(spec: ProcessSpec): Promise<string>;
  /** SIGTERM to all, in reverse start order; resolves when all have exited. */
  stop(): Promise<void>;
}

const READY_LINE = / ready on (\S+)/;
const RESTART_DELAYS_MS = [1_000, 2_000, 5_000, 10_000];
/** A process that dies this many times before its first ready line is not going to start: give up. */
const MAX_FAILED_STARTS = 3;

/**
 * Starts processes, prefixes their output with their names, and restarts one that exits unexpectedly (with a
 * growing delay), the way an orchestrator would: a crashed consumer resumes from its committed offsets.
 */
export function supervise(print: (line: string) => void): Supervisor {
  const children: ChildProcess[] = [];
  let stopping = false;

  const start = (spec: ProcessSpec): Promise<string> =>
    new Promise<string>((resolve, reject) => {
      let everReady = false;
      let failedStarts = 0;
      const launch = () => {
        const child = spawn(spec.command, spec.args, { env: { ...process.env, ...spec.env }, stdio: ['ignore', 'pipe', 'pipe'] });
        children.push(child);
        const prefix = `[${spec.name}] `;
        // The command itself could not be run (not found, not executable): no restart will help.
        child.on('error', (error) => {
          const why = `${spec.name} could not be started with ${spec.command}: ${error.message}`;
          print(prefix + why);
          reject(new Error(why));
        });
        for (const stream of [child.stdout!, child.stderr!]) {
          createInterface({ input: stream }).on('line', (line) => {
            print(prefix + line);
            const ready = READY_LINE.exec(line);
            if (ready && !everReady) {
              everReady = true;
              resolve(ready[1]!);
            }
          });
        }
        child.on('exit', (code, signal) => {
          children.splice(children.indexOf(child), 1);
          if (stopping) return;
          if (!everReady && ++failedStarts >= MAX_FAILED_STARTS) {
            reject(new Error(`${spec.name} exited ${failedStarts} times before it was ready (last: ${signal ?? `code ${code}`}); see its output above`));
            return;
          }
          const delay = RESTART_DELAYS_MS[Math.min(failedStarts, RESTART_DELAYS_MS.length - 1)]!;
          print(`${prefix}exited (${signal ?? `code ${code}`}); restarting in ${delay / 1000} s`);
          setTimeout(() => {
            if (!stopping) launch();
          }, delay).unref();
        });
      };
      launch();
    });

  return {
    start,
    async stop() {
      stopping = true;
      const exits = [...children].reverse().map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      );
      await Promise.all(exits);
    },
  };
}
