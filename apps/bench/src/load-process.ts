import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LoadCommand, LoadResult } from './load-commands.js';
import type { Print } from './progress.js';

const GENERATOR = fileURLToPath(new URL('./load-generator.ts', import.meta.url));

/** Runs one scenario in a new load-generator process and returns its figures; its progress lines are printed as they come. */
export function runLoad<C extends LoadCommand>(command: C, print: Print): Promise<LoadResult<C>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', GENERATOR, JSON.stringify(command)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    const stderr: string[] = [];
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    let partial = '';
    child.stderr.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        stderr.push(line);
        print(line);
      }
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code !== 0) {
        reject(new Error(`the load generator (${command.kind}) failed (${signal ?? `exit ${code}`}):\n${[...stderr, partial].slice(-20).join('\n')}`));
        return;
      }
      try {
        resolve(JSON.parse(stdout.trim().split('\n').pop() ?? '') as LoadResult<C>);
      } catch {
        reject(new Error(`the load generator (${command.kind}) wrote no figures: ${stdout.slice(0, 300)}`));
      }
    });
  });
}
