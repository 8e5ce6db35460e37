// Where the local engines keep their downloads, data, pid files and logs: one ignored folder, .engines/, so
// `rm -rf .engines` is a full reset and nothing lands elsewhere in the tree.
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const enginesRoot = resolve(process.env.MEMORY_ENGINES_DIR || join(repoRoot, '.engines'));

/**
 * Folders of one engine. `cache` holds what the install downloads or builds (kept across `down`); `data` holds
 * what the running engine writes (removed by `down --wipe`).
 */
export function engineDirs(name) {
  const dirs = {
    cache: join(enginesRoot, 'cache', name),
    data: join(enginesRoot, 'data', name),
    run: join(enginesRoot, 'run'),
    logs: join(enginesRoot, 'logs'),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  return { ...dirs, pidFile: join(dirs.run, `${name}.pid`), logFile: join(dirs.logs, `${name}.log`) };
}
