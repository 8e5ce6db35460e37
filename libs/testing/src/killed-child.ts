import { spawn, spawnSync } from 'node:child_process';
import { loaderFlags } from '@memory/platform';

export interface ScriptExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

/**
 * Runs one of our scripts (TypeScript through tsx, as the apps run) in a child process until it ends, with its
 * arguments; `prefix` runs it under another command (e.g. strace).
 */
export function runScript(script: string, args: string[], prefix: string[] = []): Promise<ScriptExit> {
  const command = [...prefix, process.execPath, ...loaderFlags(script), script, ...args];
  const child = spawn(command[0]!, command.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, output }));
  });
}

/**
 * Makes this process die by SIGKILL as soon as the next write transaction of an LMDB environment (lmdb-js) has
 * committed: the crash a store must survive between committing a deletion and whatever it meant to do next.
 */
export function killAfterNextCommit(env: { transaction<T>(body: () => T): Promise<T> }): void {
  const transaction = env.transaction.bind(env);
  env.transaction = async <T>(body: () => T): Promise<T> => {
    const result = await transaction(body);
    process.kill(process.pid, 'SIGKILL');
    return result;
  };
}

/** Why strace cannot watch a child here (not installed, or ptrace refused), or null when it can. */
export function straceUnavailable(): string | null {
  const probe = spawnSync('strace', ['-f', '-o', '/dev/null', 'true'], { stdio: 'ignore' });
  if (probe.error) return `strace is not installed (${(probe.error as NodeJS.ErrnoException).code})`;
  return probe.status === 0 ? null : `strace cannot trace here (exit ${probe.status}; ptrace refused?)`;
}
