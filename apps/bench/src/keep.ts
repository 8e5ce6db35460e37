import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LocomoFile } from '@memory/evaluation';

const FORMAT = 'locomo-bench-manifest/1';

/** What a run ingested: enough to ask the questions again without ingesting anything. */
export interface Manifest {
  format: typeof FORMAT;
  /** True once every job ended (Completed or Failed); a run cut short leaves it false. */
  complete: boolean;
  runId: string;
  /** "embedded" (the data folder beside this manifest) or the --url the memories were sent to. */
  service: string;
  createdAt: string;
  completedAt: string | null;
  files: ManifestFile[];
}

export interface ManifestFile {
  fileName: string;
  sha256: string;
  userId: string;
  turns: number;
  /** jobId -> dia_id of the turn it ingested. */
  jobs: Record<string, string>;
  /** jobId -> why it failed. */
  failed: Record<string, string>;
}

export interface KeepPlan {
  /** The service's data folder (embedded service only). */
  dataDir: string;
  /** A manifest whose memories are already in the service: ingestion is skipped. */
  reuse: Manifest | null;
}

export function manifestPath(keepDir: string): string {
  return join(keepDir, 'manifest.json');
}

export function readManifest(keepDir: string): Manifest | null {
  const path = manifestPath(keepDir);
  if (!existsSync(path)) return null;
  try {
    const manifest = JSON.parse(readFileSync(path, 'utf8')) as Manifest;
    return manifest?.format === FORMAT && Array.isArray(manifest.files) ? manifest : null;
  } catch {
    return null;
  }
}

export function writeManifest(keepDir: string, manifest: Manifest): void {
  mkdirSync(keepDir, { recursive: true });
  const path = manifestPath(keepDir);
  writeFileSync(`${path}.tmp`, JSON.stringify(manifest, null, 2) + '\n');
  renameSync(`${path}.tmp`, path);
}

/** Why a manifest cannot stand for these files on this service, or null when it can. */
export function whyNotReusable(manifest: Manifest, files: readonly LocomoFile[], service: string): string | null {
  if (!manifest.complete) return 'the run that wrote it did not finish ingesting';
  if (manifest.service !== service) return `it was made against ${manifest.service}, not ${service}`;
  const want = files.map((f) => `${f.fileName}:${f.sha256}`).sort().join(',');
  const have = manifest.files.map((f) => `${f.fileName}:${f.sha256}`).sort().join(',');
  return want === have ? null : 'it is for other files, or the files changed';
}

/**
 * Decides what a --keep folder is used for. A complete manifest for the same files means the memories are there:
 * reuse them. Otherwise the data folder starts over, but only when this benchmark made it (a manifest is beside
 * it), so a mistyped --keep never deletes someone's data.
 */
export function planKeepDir(keepDir: string, files: readonly LocomoFile[], service: string, print: (line: string) => void): KeepPlan {
  const dataDir = join(keepDir, 'data');
  const manifest = readManifest(keepDir);
  const embedded = service === 'embedded';
  if (manifest) {
    let why = whyNotReusable(manifest, files, service);
    if (!why && embedded && !existsSync(dataDir)) why = `${dataDir} is gone`;
    if (!why) {
      print(`reusing the memories ingested by run ${manifest.runId} (${manifest.completedAt}); delete ${manifestPath(keepDir)} to ingest again`);
      return { dataDir, reuse: manifest };
    }
    print(`not reusing ${manifestPath(keepDir)}: ${why}; ingesting again${embedded ? ` into a fresh ${dataDir}` : ''}`);
    if (embedded) rmSync(dataDir, { recursive: true, force: true });
    rmSync(manifestPath(keepDir), { force: true });
  } else if (embedded && existsSync(dataDir) && readdirSync(dataDir).length > 0) {
    throw new Error(`${dataDir} holds data but no manifest of this benchmark beside it: pass an empty or new --keep folder, or remove ${dataDir} yourself`);
  }
  return { dataDir, reuse: null };
}
