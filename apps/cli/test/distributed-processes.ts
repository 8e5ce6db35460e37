import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dropNamespace, readServiceConfig, STAGE_NAMES, type StageName } from '@memory/composition';
import { ServiceProcess } from '@memory/testing';

/** Removes a test's namespace (indices, topics, consumer groups) from the shared engines once its processes have stopped. */
export const dropTestNamespace = (namespace: string) => dropNamespace(readServiceConfig({ ...process.env, MEMORY_NAMESPACE: namespace }, 'distributed'));

const app = (name: string) => fileURLToPath(new URL(`../../${name}/src/main.ts`, import.meta.url));

/**
 * The distributed mode as separate processes the test controls one by one: the search app, one worker per stage
 * and the edge, sharing a data dir (the graph, when no ArangoDB) and a namespace of their own on the shared
 * engines, so runs never see each other's topics, groups or indices.
 */
export class DistributedProcesses {
  readonly namespace = `e2e-${randomBytes(4).toString('hex')}`;
  readonly dataDir = mkdtempSync(join(tmpdir(), 'memory-distributed-'));
  readonly workers = new Map<StageName, ServiceProcess>();
  search!: ServiceProcess;
  edge!: ServiceProcess;

  /** `env` goes to every process, e.g. MEMORY_LOG_LEVEL. */
  constructor(private readonly env: Record<string, string> = {}) {}

  get url(): string {
    return this.edge.url;
  }

  private process(entry: string, args: string[] = [], env: Record<string, string> = {}): ServiceProcess {
    return new ServiceProcess({ entry: app(entry), args, dataDir: this.dataDir, env: { MEMORY_NAMESPACE: this.namespace, ...this.env, ...env } });
  }

  async start(): Promise<void> {
    this.search = this.process('search');
    await this.search.start();
    for (const stage of STAGE_NAMES) this.workers.set(stage, this.process('stage-worker', [stage]));
    await Promise.all([...this.workers.values()].map((worker) => worker.start()));
    this.edge = this.process('edge', [], { MEMORY_SEARCH_URL: this.search.url });
    await this.edge.start();
  }

  /** Every process, for what each serves (GET /metrics) and writes (logs). */
  get processes(): ServiceProcess[] {
    return [this.edge, this.search, ...this.workers.values()];
  }

  worker(stage: StageName): ServiceProcess {
    return this.workers.get(stage)!;
  }

  async stop(): Promise<void> {
    await Promise.all([this.edge?.stop(), ...[...this.workers.values()].map((worker) => worker.stop()), this.search?.stop()]);
  }

  cleanup(): void {
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
