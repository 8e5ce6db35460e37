export const USAGE = `npm run bench:locomo -- --data <dir> [options]

  --data <dir>                 folder of LoCoMo conversation files (*.json), e.g. /work/shared/eval/locomo-dev
  --k <list>                   cut-offs for recall@k, comma-separated (default 5,10,20; at most 100)
  --json <file>                also write the figures as JSON
  --modes <list>               the services to start and measure, one after the other: embedded, distributed
                               or both, comma-separated (default embedded); distributed needs the engines of
                               \`npm run engines:up\` and is deleted from them afterwards (topics, groups, indices)
  --url <base> --key <apiKey>  measure a running service instead of starting one (both are needed)
  --keep <dir>                 keep the embedded service's data in <dir>/data and a manifest; a later run with the
                               same files skips its ingestion and only asks the questions
  --dynamic-scoring on|off     send useDynamicScoring (default: left to the service)
  --concurrency <n>            ingestion requests in flight (default 12)
  --help                       this text`;

export interface BenchOptions {
  data: string;
  ks: number[];
  json: string | null;
  url: string | null;
  key: string | null;
  keep: string | null;
  /** The services the benchmark starts, in this order; empty with --url, which measures someone else's. */
  modes: ServiceMode[];
  /** null: not sent, the service's default applies. */
  dynamicScoring: boolean | null;
  concurrency: number;
  help: boolean;
}

export const SERVICE_MODES = ['embedded', 'distributed'] as const;
export type ServiceMode = (typeof SERVICE_MODES)[number];

/** A command line that cannot run; the message names the flag and what it takes. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

const VALUE_FLAGS = ['--data', '--k', '--json', '--modes', '--url', '--key', '--keep', '--dynamic-scoring', '--concurrency'] as const;
type ValueFlag = (typeof VALUE_FLAGS)[number];

/** The service refuses options.limit above 100, so no k can be larger. */
const MAX_K = 100;

export function parseBenchArgs(argv: readonly string[]): BenchOptions {
  const values = new Map<ValueFlag, string>();
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') {
      help = true;
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = (arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg) as ValueFlag;
    if (!VALUE_FLAGS.includes(flag)) {
      throw new UsageError(arg.startsWith('-') ? `unknown option ${arg}` : `unexpected argument "${arg}" (options start with --)`);
    }
    let value: string | undefined;
    if (eq > 0 && arg.startsWith('--')) value = arg.slice(eq + 1);
    else {
      value = argv[i + 1];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`${flag} needs a value`);
      i++;
    }
    if (values.has(flag)) throw new UsageError(`${flag} is given twice`);
    if (value.trim() === '') throw new UsageError(`${flag} needs a value`);
    values.set(flag, value);
  }
  if (help) return { ...defaults(), help };

  const data = values.get('--data');
  if (!data) throw new UsageError('--data <dir> is required: the folder of LoCoMo conversation files');
  const url = values.get('--url') ?? null;
  const key = values.get('--key') ?? null;
  if ((url === null) !== (key === null)) throw new UsageError(url ? '--url needs --key <apiKey> too' : '--key needs --url <base> too');
  if (url !== null && !/^https?:\/\/[^/\s]+/.test(url)) throw new UsageError(`--url must be an http(s) base address such as http://127.0.0.1:8080, not "${url}"`);
  if (url !== null && values.has('--modes')) throw new UsageError('--modes picks the services the benchmark starts; --url measures one it does not start: give one or the other');
  const modes = url !== null ? [] : values.has('--modes') ? parseModes(values.get('--modes')!) : defaults().modes;
  if (values.has('--keep') && url === null && !modes.includes('embedded')) throw new UsageError('--keep keeps the embedded service\'s data: it needs embedded in --modes');

  return {
    data,
    ks: values.has('--k') ? parseKs(values.get('--k')!) : defaults().ks,
    json: values.get('--json') ?? null,
    url: url?.replace(/\/+$/, '') ?? null,
    key,
    keep: values.get('--keep') ?? null,
    modes,
    dynamicScoring: parseOnOff(values.get('--dynamic-scoring')),
    concurrency: values.has('--concurrency') ? wholeNumber('--concurrency', values.get('--concurrency')!, 1, 64) : defaults().concurrency,
    help: false,
  };
}

function defaults(): BenchOptions {
  return { data: '', ks: [5, 10, 20], json: null, url: null, key: null, keep: null, modes: ['embedded'], dynamicScoring: null, concurrency: 12, help: false };
}

function parseModes(raw: string): ServiceMode[] {
  const named = raw.split(',').map((part) => part.trim());
  const unknown = named.find((mode) => !(SERVICE_MODES as readonly string[]).includes(mode));
  if (unknown !== undefined) throw new UsageError(`--modes takes ${SERVICE_MODES.join(', ')} (comma-separated), not "${unknown}"`);
  return SERVICE_MODES.filter((mode) => named.includes(mode));
}

function parseKs(raw: string): number[] {
  const ks = raw.split(',').map((part) => wholeNumber('--k', part.trim(), 1, MAX_K));
  return [...new Set(ks)].sort((a, b) => a - b);
}

function parseOnOff(raw: string | undefined): boolean | null {
  if (raw === undefined) return null;
  if (raw === 'on' || raw === 'true') return true;
  if (raw === 'off' || raw === 'false') return false;
  throw new UsageError(`--dynamic-scoring takes on or off, not "${raw}"`);
}

function wholeNumber(flag: string, raw: string, min: number, max: number): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max) throw new UsageError(`${flag} takes whole numbers from ${min} to ${max}, not "${raw}"`);
  return n;
}
