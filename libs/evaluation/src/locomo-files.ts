import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { MemoryServiceError } from '@memory/platform';
import { parseLocomoConversation, type LocomoConversation } from './locomo.js';

export interface LocomoFile {
  /** File name, e.g. "26.json". */
  fileName: string;
  /** File name without .json, e.g. "26". */
  stem: string;
  path: string;
  /** Of the file's bytes: says whether stored results still belong to this file. */
  sha256: string;
  conversation: LocomoConversation;
}

/** The .json files of a folder, by name; other files (a README) are left alone. */
export function listLocomoFiles(dir: string): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new MemoryServiceError('LOCOMO.DATA_MISSING', `${dir} is not a folder: point --data at a folder of LoCoMo conversation files (*.json)`);
  }
  const files = readdirSync(dir)
    .filter((name) => name.toLowerCase().endsWith('.json'))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
    .map((name) => join(dir, name));
  if (files.length === 0) {
    throw new MemoryServiceError('LOCOMO.DATA_EMPTY', `${dir} holds no *.json files: put one LoCoMo conversation per file there (e.g. the samples of locomo10.json)`);
  }
  return files;
}

export function readLocomoFile(path: string): LocomoFile {
  const bytes = readFileSync(path);
  const fileName = basename(path);
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new MemoryServiceError('LOCOMO.INVALID_FILE', `${fileName}: not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  return {
    fileName,
    stem: fileName.replace(/\.json$/i, ''),
    path,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    conversation: parseLocomoConversation(raw, fileName),
  };
}

export function readLocomoDir(dir: string): LocomoFile[] {
  return listLocomoFiles(dir).map(readLocomoFile);
}
