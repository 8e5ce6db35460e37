import { UsageError } from './args.js';

export const GROWTH_USAGE = `npm run bench:growth -- [options]

  --memories <n>   memories of the one end user at the end (default 100000)
  --step <n>       memories added between measurements (default 10000)
  --queries <n>    searches per measurement and client count (default 200)
  --keep <dir>     keep the data folder in <dir>; a later run continues from the memories it holds
  --json <file>    also write every figure as JSON
  --help           this text`;

export interface GrowthOptions {
  memories: number;
  step: number;
  queries: number;
  keep: string | null;
  json: string | null;
}

/** bench:growth's command line; null for --help. */
export function parseGrowthArgs(argv: readonly string[]): GrowthOptions | null {
  const options: GrowthOptions = { memories: 100_000, step: 10_000, queries: 200, keep: null, json: null };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag === '--help' || flag === '-h') return null;
    const value = argv[++i];
    if (value === undefined || value.startsWith('--')) throw new UsageError(`${flag} needs a value`);
    if (flag === '--keep' || flag === '--json') {
      options[flag === '--keep' ? 'keep' : 'json'] = value;
      continue;
    }
    const key = ({ '--memories': 'memories', '--step': 'step', '--queries': 'queries' } as const)[flag as '--memories'];
    if (!key) throw new UsageError(`unknown option ${flag}`);
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} takes a whole number >= 1, not "${value}"`);
    options[key] = n;
  }
  return options;
}
