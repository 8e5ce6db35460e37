import { UsageError } from './args.js';

export const BREAKDOWN_USAGE = `npm run bench:breakdown -- [options]

Starts the distributed service on the engines (npm run engines:up) on a namespace of its own and reports where the
wall time of one search and of one ingested memory goes, step by step, as medians over repetitions.

  --memories <n>   memories of the end user searched (default 1000)
  --searches <n>   searches timed, one at a time (default 100)
  --ingests <n>    memories ingested one at a time and followed through the pipeline (default 20)
  --clients <list> then search_ms as \`npm run bench\` measures it, at each of these client counts (default 1,8;
                   0 for none)
  --load-queries <n>  searches per client count (default 200)
  --json <file>    also write every figure as JSON
  --help           this text`;

export interface BreakdownOptions {
  memories: number;
  searches: number;
  ingests: number;
  clients: number[];
  loadQueries: number;
  json: string | null;
}

/** bench:breakdown's command line; null for --help. */
export function parseBreakdownArgs(argv: readonly string[]): BreakdownOptions | null {
  const options: BreakdownOptions = { memories: 1000, searches: 100, ingests: 20, clients: [1, 8], loadQueries: 200, json: null };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag === '--help' || flag === '-h') return null;
    const value = argv[++i];
    if (value === undefined || value.startsWith('--')) throw new UsageError(`${flag} needs a value`);
    if (flag === '--json') {
      options.json = value;
      continue;
    }
    if (flag === '--clients') {
      const counts = value.split(',').map(Number);
      if (!counts.every((n) => Number.isInteger(n) && n >= 0)) throw new UsageError(`--clients takes whole numbers separated by commas, not "${value}"`);
      options.clients = counts.filter((n) => n > 0);
      continue;
    }
    const key = ({ '--memories': 'memories', '--searches': 'searches', '--ingests': 'ingests', '--load-queries': 'loadQueries' } as const)[flag as '--memories'];
    if (!key) throw new UsageError(`unknown option ${flag}`);
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} takes a whole number >= 1, not "${value}"`);
    options[key] = n;
  }
  return options;
}
