import { UsageError } from './args.js';

export const PERF_USAGE = `npm run bench -- [options]

  --scale small|full   small: 1k and 10k memories per user (default; full, 100k, is not written yet)
  --mode embedded      the embedded default (distributed is not written yet)
  --json <file>        also write every figure as JSON
  --help               this text`;

export interface PerfOptions {
  scale: 'small';
  mode: 'embedded';
  json: string | null;
  help: boolean;
}

/** The performance benchmark's command line; refuses what it cannot run yet rather than running something else. */
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
      if (value === 'full') throw new UsageError('--scale full (100k memories per user) is not written yet; use --scale small');
      if (value !== 'small') throw new UsageError(`--scale takes small or full, not "${value}"`);
    } else {
      if (value === 'distributed') throw new UsageError('--mode distributed is not written yet; use --mode embedded');
      if (value !== 'embedded') throw new UsageError(`--mode takes embedded or distributed, not "${value}"`);
    }
  }
  return options;
}
