import { fileURLToPath } from 'node:url';
import { ServiceProcess } from '@memory/testing';

export { TEST_KEYS as KEYS, caller, waitForDrain, waitForJob, type Caller } from '@memory/testing';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

/** memoryd as `npm start` runs it, on a fresh data dir and a free port. */
export function memorydProcess(env: Record<string, string> = {}): ServiceProcess {
  return new ServiceProcess({ entry: MAIN, env });
}
