// Where the local engines keep their downloads, data, pid files and logs: one ignored folder, .engines/, so
// `rm -rf .engines` is a full reset and nothing lands elsewhere in the tree.
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const enginesRoot = resolve(process.env.MEMORY_ENGINES_DIR || join(repoRoot, '.engines'));
// Downloads and builds are the same for every set of engines: a second, private set (MEMORY_ENGINES_DIR elsewhere)
// points this at the first set's cache, so it neither downloads Kafka nor rebuilds MinIO. Nothing running writes here.
export const cacheRoot = resolve(process.env.MEMORY_ENGINES_CACHE_DIR || join(enginesRoot, 'cache'));

/**
 * Added to every port an engine listens on (Kafka 9092 → 19092 with 10000), so a second set can run beside the
 * first on one machine, e.g. for drills that stop engines while others' work runs on the first set.
 */
export const portOffset = parsePortOffset(process.env.MEMORY_ENGINES_PORT_OFFSET);

/** An engine's port in this set: its default plus MEMORY_ENGINES_PORT_OFFSET. */
export function enginePort(defaultPort) {
  return defaultPort + portOffset;
}

function parsePortOffset(text) {
  if (text === undefined || text.trim() === '') return 0;
  const offset = Number(text);
  if (!Number.isInteger(offset) || offset < 0 || offset + 9300 > 65535) {
    throw new Error(`MEMORY_ENGINES_PORT_OFFSET must be a whole number from 0 to ${65535 - 9300}, not "${text}"`);
  }
  return offset;
}

/**
 * Folders of one engine. `cache` holds what the install downloads or builds (kept across `down`); `data` holds
 * what the running engine writes (removed by `down --wipe`).
 */
export function engineDirs(name) {
  const dirs = {
    cache: join(cacheRoot, name),
    data: join(enginesRoot, 'data', name),
    run: join(enginesRoot, 'run'),
    logs: join(enginesRoot, 'logs'),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  return { ...dirs, pidFile: join(dirs.run, `${name}.pid`), logFile: join(dirs.logs, `${name}.log`) };
}
