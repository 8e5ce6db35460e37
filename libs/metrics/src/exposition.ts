/**
 * The sum of a metric's samples whose labels include `labels`, over several Prometheus text expositions (several
 * processes' GET /metrics): how a test or a drill reads a counter without a Prometheus server.
 */
export function sampleSum(expositions: string[], name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const text of expositions) {
    for (const line of text.split('\n')) {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match || match[1] !== name) continue;
      const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
      if (Object.entries(labels).every(([key, value]) => found[key] === value)) sum += Number(match[3]);
    }
  }
  return sum;
}
