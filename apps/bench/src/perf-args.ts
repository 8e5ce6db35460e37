import { UsageError } from './args.js';
import { PERF_SCALES, type PerfScale } from './perf-plan.js';

export const PERF_USAGE = `npm run bench -- [options]

  --mode embedded|distributed|both
                               the embedded default (memoryd, default), or start:distributed against the engines
                               of \`npm run engines:up\` (Kafka, schema registry, Elasticsearch, MinIO), or both
                               in turn, then side by side with their ratio
  --scale quick|small|full     quick: every scenario once at 1k memories (a check of a change, a few minutes);
                               small: search at 1k and 10k memories per user (default, ~12 min on 2 cores);
                               full: also at 100k (~40 min on 2 cores: 198k memories go through the pipeline)
  --json <file>                also write every figure as JSON
  --help                       this text`;

export const PERF_MODES = ['embedded', 'distributed', 'both'] as const;
export type PerfMode = (typeof PERF_MODES)[number];

export interface PerfOptions {
  scale: PerfScale;
  mode: PerfMode;
  json: string | null;
  help: boolean;
}

/** The performance benchmark's command line. */
export function parsePerfArgs(argv: readonly string[]): PerfOptions {
  const options: PerfOptions = { scale: 'small', mode: 'embedded', json: null, help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') {
      options.help = true;
      continue;
    }
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (flag !== '--scale' && flag !== '--json' && flag !== '--mode') throw new UsageError(arg.startsWith('-') ? `unknown option ${arg}` : `unexpected argument "${arg}"`);
    const value = inline ?? argv[++i];
    if (value === undefined || value === '' || value.startsWith('--')) throw new UsageError(`${flag} needs a value`);
    if (flag === '--json') options.json = value;
    else if (flag === '--scale') {
      if (!(PERF_SCALES as readonly string[]).includes(value)) throw new UsageError(`--scale takes ${PERF_SCALES.join(', ')}, not "${value}"`);
      options.scale = value as PerfScale;
    } else {
      if (!(PERF_MODES as readonly string[]).includes(value)) throw new UsageError(`--mode takes ${PERF_MODES.join(', ')}, not "${value}"`);
      options.mode = value as PerfMode;
    }
  }
  return options;
}
