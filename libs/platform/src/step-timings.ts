import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';

/** One step of a unit of work: how many times it ran and its wall time summed over them (ms). */
export interface StepTiming {
  step: string;
  count: number;
  ms: number;
}

/**
 * Where the wall time of one unit of work (a search, an accept) goes, by named step. Steps that run concurrently
 * overlap, so their times do not add up to the whole; a step that ran several times (one Elasticsearch request
 * per call) shows its count and the sum of its times.
 */
export class StepTimings {
  private readonly steps = new Map<string, { count: number; ms: number }>();
  private readonly started = performance.now();

  add(step: string, ms: number): void {
    const seen = this.steps.get(step);
    if (seen) {
      seen.count += 1;
      seen.ms += ms;
    } else this.steps.set(step, { count: 1, ms });
  }

  /** Milliseconds since this recorder was made. */
  elapsed(): number {
    return performance.now() - this.started;
  }

  /** The steps in the order they were first recorded. */
  list(): StepTiming[] {
    return [...this.steps].map(([step, { count, ms }]) => ({ step, count, ms }));
  }
}

const current = new AsyncLocalStorage<StepTimings>();

/** Runs `work` with `timings` recording every timed step inside it (across awaits). */
export function withStepTimings<T>(timings: StepTimings, work: () => T): T {
  return current.run(timings, work);
}

/** Times `work` as `step` of the unit of work being recorded; outside one it only runs `work`. */
export async function timeStep<T>(step: string, work: () => Promise<T>): Promise<T> {
  const timings = current.getStore();
  if (!timings) return work();
  const started = performance.now();
  try {
    return await work();
  } finally {
    timings.add(step, performance.now() - started);
  }
}

/**
 * The port `target` with each of its methods that returns a promise timed as step `<prefix>.<method>`, for a port
 * whose every call is worth a line of the breakdown (a store, the embedder). Outside a recorded unit of work the
 * methods are called as they are.
 */
export function timedPort<T extends object>(prefix: string, target: T): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      const value: unknown = Reflect.get(object, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      return (...args: unknown[]) => {
        const timings = current.getStore();
        if (!timings) return (value as (...a: unknown[]) => unknown).apply(object, args);
        const started = performance.now();
        const result = (value as (...a: unknown[]) => unknown).apply(object, args);
        if (!(result instanceof Promise)) return result;
        return result.finally(() => timings.add(`${prefix}.${property}`, performance.now() - started));
      };
    },
  });
}

/**
 * The steps as a Server-Timing header value (W3C Server Timing): `step;dur=<ms>;desc="<count>x"` each, so a
 * browser's network panel shows them and a client (the bench's breakdown, the edge) reads them back.
 */
export function serverTimingHeader(steps: readonly StepTiming[]): string {
  return steps.map(({ step, count, ms }) => `${step};dur=${ms.toFixed(2)};desc="${count}x"`).join(', ');
}

/** The steps of a Server-Timing header value written by serverTimingHeader (entries of another form count once). */
export function parseServerTiming(header: string | null | undefined): StepTiming[] {
  if (!header) return [];
  return header.split(',').flatMap((entry) => {
    const [name, ...params] = entry.trim().split(';');
    if (!name) return [];
    const dur = params.map((p) => /^\s*dur=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    const count = params.map((p) => /^\s*desc="?(\d+)x"?\s*$/.exec(p)?.[1]).find(Boolean);
    return [{ step: name.trim(), count: count ? Number(count) : 1, ms: dur ? Number(dur) : 0 }];
  });
}
