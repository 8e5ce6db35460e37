import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { processTree } from '@memory/platform';

/** SIGKILL to a process and its descendants, children first seen before the parent dies. */
export function killTree(pid: number): void {
  for (const member of processTree(pid).reverse()) {
    try {
      process.kill(member, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/**
 * What a process of the service is, for a reader of the bench: its script's name (`edge`, `search`, `stage-worker`,
 * the launcher's `start-distributed`), with the stages a stage worker runs (MEMORY_STAGES in its environment), or the
 * command's name for anything else; null when the process is gone.
 */
export function processName(pid: number): string | null {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    const script = args.slice(1).find((arg) => /\.(c|m)?(j|t)s$/.test(arg));
    const name = script ? basename(script).replace(/\.(c|m)?(j|t)s$/, '') : basename(args[0] ?? '?');
    const stages = environmentOf(pid).MEMORY_STAGES;
    return stages ? `${name} (${stages.split(',').join(', ')})` : name;
  } catch {
    return null;
  }
}

function environmentOf(pid: number): Record<string, string> {
  try {
    return Object.fromEntries(
      readFileSync(`/proc/${pid}/environ`, 'utf8')
        .split('\0')
        .filter((entry) => entry.includes('='))
        .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
    );
  } catch {
    return {};
  }
}
