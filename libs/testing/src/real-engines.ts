/**
 * Specs against a real engine (Kafka, the schema registry, Elasticsearch, MinIO, ArangoDB) run when the engine is
 * reachable and are reported as skipped, with the reason, when it is not. Engines named in
 * MEMORY_REQUIRED_ENGINES (comma-separated; CI sets it) must be reachable: their absence fails the run instead, so
 * nothing silently stops being tested.
 */
export interface RealEngine {
  /** The name used in MEMORY_REQUIRED_ENGINES and by `npm run engines:up`, e.g. 'kafka'. */
  name: string;
  /** Where the spec will look, for the messages, e.g. '127.0.0.1:9092'. */
  endpoint: string;
  /** One quick reachability check. */
  probe(): Promise<boolean>;
  /** What to do when it is absent, e.g. 'start it with `npm run engines:up`'. */
  hint?: string;
}

export function requiredEngines(env: Record<string, string | undefined> = process.env): Set<string> {
  return new Set(
    (env['MEMORY_REQUIRED_ENGINES'] ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
  );
}

/**
 * A mocha `describe` whose tests need `engine` (or several). Call it at the top level of a spec file; `body`
 * declares the tests as usual.
 */
export function describeWithEngine(title: string, engine: RealEngine | RealEngine[], body: (this: Mocha.Suite) => void): void {
  const engines = Array.isArray(engine) ? engine : [engine];
  describe(title, function () {
    before(async function () {
      this.timeout(15_000);
      const absent: RealEngine[] = [];
      for (const candidate of engines) if (!(await reachable(candidate))) absent.push(candidate);
      if (absent.length === 0) return;
      const required = requiredEngines();
      const reasons = absent.map((e) => `${e.name} is not reachable at ${e.endpoint}; ${e.hint ?? 'start it with `npm run engines:up`'}`);
      if (absent.some((e) => required.has(e.name))) throw new Error(`required by MEMORY_REQUIRED_ENGINES: ${reasons.join('; ')}`);
      console.log(`      skipped: ${reasons.join('; ')}`);
      if (this.test?.parent) skippedSuites.add(this.test.parent);
      this.skip();
    });
    body.call(this);
  });
}

const skippedSuites = new WeakSet<Mocha.Suite>();

/**
 * Whether describeWithEngine skipped the suite of this hook for want of its engine. Mocha still runs `after` hooks
 * of a skipped suite, so a cleanup that talks to the engine returns early on this.
 */
export function skippedForEngine(context: Mocha.Context): boolean {
  for (let suite: Mocha.Suite | undefined = context.test?.parent; suite; suite = suite.parent) if (skippedSuites.has(suite)) return true;
  return false;
}

async function reachable(engine: RealEngine): Promise<boolean> {
  try {
    return await engine.probe();
  } catch {
    return false;
  }
}
