import { DRILL_ENGINES, JOIN_TARGETS, KILL_TARGETS, type DrillEngine, type JoinTarget, type KillTarget } from '@memory/drill';
import { UsageError } from './args.js';

export const DRILL_USAGE = `npm run drill -- --engine kafka|registry|elasticsearch|minio|all [options]
npm run drill -- --kill edge|enricher|temporal|dual-writer|calibrator|job-tracker|search|random [options]
npm run drill -- --join enricher|search [options]

Starts the distributed mode (\`npm run start:distributed\`) on the engines of \`deploy/engines/cli.mjs env\` (the set
MEMORY_ENGINES_DIR and MEMORY_ENGINES_PORT_OFFSET name) and, with --engine, stops that engine with the project's
engine scripts while memories arrive; with --kill, kills a process with SIGKILL in each trial; with --join, starts
a second enricher or search app beside the running one while memories arrive, and stops it again.

  --engine <name>   the engine to stop (several comma-separated, or all: each in turn)
  --seconds <n>     how long the engine stays down (default 20); with --join, how long the second process stays
                    once it is ready (default 20)
  --rate <n>        memories per second (default 10); a join drill measures the pipeline's own rate only when this
                    is above it (its backlog then grows)
  --kill <name>     the process to kill -9 (random: drawn per trial from the seed)
  --trials <n>      crash trials (default 20)
  --join <name>     the process to add mid-stream: enricher or search
  --searches <n>    with --join, searches per second through the edge for the whole drill (default 2)
  --memories <n>    memories over all crash trials (default 500), or of the join drill (default 1200)
  --seed <n>        the seed of the crash trials' targets and moments (default: a new one, printed)
  --json <file>     also write the results as JSON
  --help            this text`;

export type DrillArgs =
  | { mode: 'outage'; engines: DrillEngine[]; seconds: number; rate: number; json: string | null }
  | { mode: 'kill'; target: KillTarget | 'random'; trials: number; memories: number; rate: number; seed: number; json: string | null }
  | { mode: 'join'; target: JoinTarget; memories: number; rate: number; holdS: number; searchRate: number; json: string | null };

/** drill's command line; null for --help. */
export function parseDrillArgs(argv: readonly string[], newSeed: () => number): DrillArgs | null {
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag === '--help' || flag === '-h') return null;
    if (!['--engine', '--seconds', '--rate', '--kill', '--join', '--searches', '--trials', '--memories', '--seed', '--json'].includes(flag)) throw new UsageError(`unknown option ${flag}`);
    const value = argv[++i];
    if (value === undefined || value.startsWith('--')) throw new UsageError(`${flag} needs a value`);
    if (values.has(flag)) throw new UsageError(`${flag} is given twice`);
    values.set(flag, value);
  }
  const whole = (flag: string, fallback: number, min: number) => {
    const value = values.get(flag);
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new UsageError(`${flag} takes a whole number >= ${min}, not "${value}"`);
    return n;
  };
  const engine = values.get('--engine');
  const kill = values.get('--kill');
  const join = values.get('--join');
  if ([engine, kill, join].filter((mode) => mode !== undefined).length !== 1) throw new UsageError('give one of --engine, --kill and --join');
  const json = values.get('--json') ?? null;
  const rate = whole('--rate', 10, 1);
  if (join !== undefined) {
    for (const flag of ['--trials', '--seed']) if (values.has(flag)) throw new UsageError(`${flag} goes with --kill`);
    if (!(JOIN_TARGETS as readonly string[]).includes(join)) throw new UsageError(`--join takes ${JOIN_TARGETS.join(' or ')}, not "${join}"`);
    return { mode: 'join', target: join as JoinTarget, memories: whole('--memories', 1200, 1), rate, holdS: whole('--seconds', 20, 1), searchRate: whole('--searches', 2, 1), json };
  }
  if (values.has('--searches')) throw new UsageError('--searches goes with --join');
  if (engine !== undefined) {
    for (const flag of ['--trials', '--memories', '--seed']) if (values.has(flag)) throw new UsageError(`${flag} goes with --kill`);
    const engines = engine === 'all' ? [...DRILL_ENGINES] : engine.split(',').map((name) => name.trim());
    for (const name of engines) if (!(DRILL_ENGINES as readonly string[]).includes(name)) throw new UsageError(`--engine takes ${DRILL_ENGINES.join(', ')} (or several, comma-separated) or all, not "${name}"`);
    return { mode: 'outage', engines: engines as DrillEngine[], seconds: whole('--seconds', 20, 1), rate, json };
  }
  if (values.has('--seconds')) throw new UsageError('--seconds goes with --engine or --join');
  if (kill !== 'random' && !(KILL_TARGETS as readonly string[]).includes(kill!)) throw new UsageError(`--kill takes ${KILL_TARGETS.join(', ')} or random, not "${kill}"`);
  const trials = whole('--trials', 20, 1);
  const memories = whole('--memories', 500, 1);
  if (memories < trials) throw new UsageError(`--memories (${memories}) must be at least --trials (${trials})`);
  return { mode: 'kill', target: kill as KillTarget | 'random', trials, memories, rate, seed: values.has('--seed') ? whole('--seed', 0, 0) : newSeed(), json };
}
