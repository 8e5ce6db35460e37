import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateApiKey, hashApiKey, parseApiKeys } from '@memory/http-api/keys';

const DEV_TENANT = 'dev';

/**
 * The API keys: MEMORY_API_KEYS when set; otherwise a development key, created on first start, printed once, and
 * kept in the data dir only as its hash (lose it: delete the file and restart for a new one).
 */
export function loadApiKeys(dataDir: string, spec: string | undefined, print: (line: string) => void): Map<string, string> {
  if (spec) return parseApiKeys(spec);
  const file = join(dataDir, 'dev-api-key.json');
  const useSaved = () => {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { sha256: string; tenant: string };
    print(`Using the development API key created at first start (tenant "${saved.tenant}"; hash in ${file}). Set MEMORY_API_KEYS for real keys.`);
    return new Map([[saved.sha256, saved.tenant]]);
  };
  if (existsSync(file)) return useSaved();
  const key = generateApiKey();
  mkdirSync(dataDir, { recursive: true });
  try {
    // Exclusive create: processes of the distributed mode sharing a data dir agree on one key.
    writeFileSync(file, JSON.stringify({ sha256: hashApiKey(key), tenant: DEV_TENANT }), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return useSaved();
    throw error;
  }
  print(`\nDevelopment API key (shown once, only its hash is stored in ${file}):\n\n    ${key}\n\nUse it as: Authorization: Bearer ${key}\n`);
  return new Map([[hashApiKey(key), DEV_TENANT]]);
}
