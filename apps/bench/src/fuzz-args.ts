import { UsageError } from './args.js';

export const FUZZ_USAGE = `npm run fuzz -- [options]

  --requests <n>   hostile requests in all, shared out over every route of /openapi.json (default 10000)
  --seed <n>       the seed that decides every request (default: a new one, printed)
  --only <i,j,..>  replay only these request numbers of the seed (what a failure line prints)
  --json <file>    also write the whole report as JSON
  --url <url>      fuzz the service running there instead of starting the embedded one (with --key)
  --key <key>      an API key of the service at --url
  --max-rss <mb>   fail when the service's RSS passes this (default 2048)
  --help           this text`;

export interface FuzzArgs {
  requests: number;
  seed: number;
  only: number[] | null;
  json: string | null;
  url: string | null;
  key: string | null;
  maxRssMb: number;
}

/** fuzz's command line; null for --help. */
export function parseFuzzArgs(argv: readonly string[], newSeed: () => number): FuzzArgs | null {
  const options: FuzzArgs = { requests: 10_000, seed: -1, only: null, json: null, url: null, key: null, maxRssMb: 2048 };
  const whole = (flag: string, value: string, min: number) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new UsageError(`${flag} takes a whole number >= ${min}, not "${value}"`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag === '--help' || flag === '-h') return null;
    const value = argv[++i];
    if (value === undefined || value.startsWith('--')) throw new UsageError(`${flag} needs a value`);
    if (flag === '--requests') options.requests = whole(flag, value, 1);
    else if (flag === '--seed') options.seed = whole(flag, value, 0);
    else if (flag === '--max-rss') options.maxRssMb = whole(flag, value, 1);
    else if (flag === '--only') options.only = value.split(',').map((part) => whole(flag, part.trim(), 0));
    else if (flag === '--json') options.json = value;
    else if (flag === '--url') options.url = value.replace(/\/+$/, '');
    else if (flag === '--key') options.key = value;
    else throw new UsageError(`unknown option ${flag}`);
  }
  if ((options.url === null) !== (options.key === null)) throw new UsageError('--url and --key go together');
  if (options.only && options.seed < 0) throw new UsageError('--only replays requests of one run: give its --seed too');
  if (options.seed < 0) options.seed = newSeed();
  return options;
}
