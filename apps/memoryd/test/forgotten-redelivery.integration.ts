import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AvroCodec, EVENTS, jobHeaders, jobStatusOf, memoryIdOf, userKey, type EventName, type EventPayloads, type ForgetRequested, type MemoryCommitted, type MemoryEnriched } from '@memory/contracts';
import { createLogger, MemoryServiceError } from '@memory/platform';
import { graphIds, Keyring, type BlobStore, type CentroidStore, type DataKeyStore, type EventLog, type GraphStore, type JobStore, type SchemaRegistry, type Scope, type VectorStore } from '@memory/ports';
import { runStage, type StageSpec } from '@memory/pipeline-runtime';
import { createEmbeddedEventLog } from '@memory/eventlog-embedded';
import { createEmbeddedSchemaRegistry } from '@memory/schema-registry-embedded';
import { openEmbeddedKeyStore } from '@memory/keys-embedded';
import { createEmbeddedGraphStore } from '@memory/graph-embedded';
import { createEmbeddedJobStore } from '@memory/jobs-embedded';
import { createEmbeddedVectorStore, openEmbeddedVectorStores } from '@memory/vectors-embedded';
import { dualWriterStage } from '@memory/stage-dual-writer';
import { centroidCalibratorStage } from '@memory/stage-centroid-calibrator';
import { jobTrackerStage } from '@memory/stage-job-tracker';
import { forget } from '@memory/stage-forgetter';
import { memoryRecord, unitVector } from '@memory/testing';

/**
 * A stage that writes stores checks the tombstones after its writes. When its batch stops between the two (an engine
 * outage sends it back to the log; a crash would too) and the memory is forgotten meanwhile, after the forgetter
 * removed what was there but before the write landed, the batch comes again as records that no longer open: the
 * stage must take back what the first delivery wrote, or it stays in the stores for good.
 */
describe('a batch sent back to the log between its writes and its check, its memory forgotten meanwhile', function () {
  this.timeout(30_000);
  const T = 1_700_000_000_000;
  const scope: Scope = { tenantId: 'acme', endUserId: 'alice' };
  const DIMS = 4;
  const silent = createLogger({}, 'silent');
  let dir: string;
  let registry: SchemaRegistry;
  let log: EventLog;
  let keyStore: DataKeyStore;
  let keys: Keyring;
  let codec: AvroCodec;
  let stores: { vectors: VectorStore; centroids: CentroidStore; close(): Promise<void> };
  let visualVectors: VectorStore;
  let graph: GraphStore;
  let jobs: JobStore;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'forgotten-redelivery-'));
    registry = await createEmbeddedSchemaRegistry({ dir: join(dir, 'registry') });
    log = await createEmbeddedEventLog({ dir: join(dir, 'log'), retryInitialMs: 10, retryMaxMs: 50, logger: silent });
    await log.ensureTopics(Object.values(EVENTS).map((e) => ({ name: e.topic, partitions: 1 })));
    keyStore = await openEmbeddedKeyStore({ dir: join(dir, 'keys') });
    // One keyring for the codec and the forgetter, as in memoryd: forgetting drops the key from its cache at once.
    keys = new Keyring(keyStore);
    codec = new AvroCodec(registry, keys);
    stores = openEmbeddedVectorStores({ dir: join(dir, 'vectors') });
    visualVectors = createEmbeddedVectorStore({ dir: join(dir, 'visual') });
    graph = createEmbeddedGraphStore({ dir: join(dir, 'graph') });
    jobs = createEmbeddedJobStore({ dir: join(dir, 'jobs') });
  });
  afterEach(async () => {
    await Promise.all([log.close(), registry.close(), keyStore.close(), stores.close(), visualVectors.close(), graph.close(), jobs.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  async function append<N extends EventName>(event: N, values: Array<EventPayloads[N]>) {
    for (const value of values) {
      const { tenantId, endUserId } = value as unknown as Scope;
      await log.append(EVENTS[event].topic, [{ key: userKey(tenantId, endUserId), value: await codec.encode(event, value), headers: jobHeaders(value) }]);
    }
  }

  /** Runs the stage over what the log holds until its group has committed all of it, then stops it. */
  async function runToEnd<In extends EventName, Deps>(stage: StageSpec<In, Deps>, deps: Deps) {
    const consumer = await runStage(stage, deps, { log, codec, logger: silent, retry: { retries: 0 } });
    const drained = async () => {
      for (const input of stage.inputs) {
        if (!(await log.lag(stage.group, EVENTS[input].topic)).every((p) => p.committed >= p.end)) return false;
      }
      return true;
    };
    const deadline = Date.now() + 10_000;
    try {
      while (!(await drained())) {
        if (Date.now() > deadline) throw new Error(`${stage.group} did not commit the log in 10 s`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await consumer.stop();
    }
  }

  /** DELETE of a memory as memoryd carries it out: its keys destroyed, then the forgetter on every store. Once. */
  function forgetting(memoryId: string) {
    const request: ForgetRequested = { jobId: `del_job_${T + 900}_alice`, ...scope, target: 'memory', memoryId, targetJobId: null, acceptedAt: T + 900, keysDestroyed: 0 };
    // The memory has no files here: the blob store only counts.
    const blobs = { deletePrefix: async () => 0 } as unknown as BlobStore;
    let done: Promise<unknown> | undefined;
    return () => (done ??= forget(request, { vectors: stores.vectors, visualVectors, graph, centroids: stores.centroids, blobs, jobs, keys }));
  }

  const outage = (family: string) => new MemoryServiceError(`${family}.UNAVAILABLE`, `${family.toLowerCase()} does not answer`, { retriable: true });

  /** The stage's view of the key store, whose check after the writes finds it unreachable once. */
  function checkFailingOnce() {
    const state = { failed: false };
    const view = {
      forgotten: async (at: Scope, keyIds: string[]) => {
        if (state.failed) return keys.forgotten(at, keyIds);
        state.failed = true;
        throw outage('KEYS');
      },
    };
    return { view, state };
  }

  describe('the dual-writer', () => {
    const jobId = `img_job_${T + 1}_alice`;
    const memoryId = memoryIdOf(jobId, 0);
    const image: MemoryEnriched = {
      memoryId, jobId, ...scope, kind: 'image', partIndex: 0, partCount: 1, acceptedAt: T + 1, createdAt: T + 1,
      content: 'A postcard from Zora', originalContent: 'A postcard from Zora', userContext: null, eventTimes: [], memoryType: 'event',
      themes: [], synonyms: [], keywords: [], entities: [{ name: 'Zora', type: 'person', key: 'zora' }], sentiment: 'neutral', sentimentScore: 0,
      movieGenre: null, mentionedTitles: [], embeddingModel: 'm@1', vector: [0.6, 0.8], blob: null, document: null, metadata: null, cause: 'ingest',
      image: { width: 2, height: 1, format: 'png', dominantColours: [{ hex: '#ff0000', share: 1, name: 'red' }], perceptualHash: '0f0f0f0f0f0f0f0f', capturedAt: null, ocrText: '', previewKey: `acme/alice/${jobId}/preview.webp`, descriptorVersion: 'visual-v1', visualVector: [1, 0] },
    };

    /**
     * The stores as the dual-writer's first delivery finds them: the memory forgotten before any write lands, then
     * every store writes it but `refusing`, which does not answer, and the batch goes back to the log.
     */
    function firstDeliveryRefusedBy(refusing: 'vectors' | 'graph') {
      const forgotten = forgetting(memoryId);
      const state = { refused: false };
      const landed: Array<Promise<unknown>> = [];
      const write = async <T>(name: string, upsert: () => Promise<T>): Promise<T | undefined> => {
        if (state.refused) return upsert();
        await forgotten();
        if (name !== refusing) {
          const written = upsert();
          landed.push(written);
          return written;
        }
        // After the other stores' writes have started, so they land before the batch fails.
        await new Promise((resolve) => setImmediate(resolve));
        await Promise.all(landed);
        state.refused = true;
        throw outage(refusing === 'graph' ? 'GRAPH' : 'VECTORS');
      };
      const vectors: VectorStore = Object.create(stores.vectors, { upsertIf: { value: (writes: Parameters<VectorStore['upsertIf']>[0]) => write('vectors', () => stores.vectors.upsertIf(writes)) } });
      const visual: VectorStore = Object.create(visualVectors, { upsert: { value: (records: Parameters<VectorStore['upsert']>[0]) => write('visual', () => visualVectors.upsert(records)) } });
      const graphStore: GraphStore = Object.create(graph, { upsert: { value: (...args: Parameters<GraphStore['upsert']>) => write('graph', () => graph.upsert(...args)) } });
      return { deps: { vectors, visualVectors: visual, graph: graphStore, keys }, state };
    }

    for (const refusing of ['graph', 'vectors'] as const) {
      it(`takes the memory back from every store when it comes again unreadable (the ${refusing} store refused the first delivery)`, async () => {
        await append('enriched', [image]);
        const { deps, state } = firstDeliveryRefusedBy(refusing);
        await runToEnd(dualWriterStage, deps);

        expect(state.refused, 'the first delivery failed between its writes and its check').to.equal(true);
        expect(await stores.vectors.get(scope, [memoryId]), 'vectors').to.deep.equal([]);
        expect(await visualVectors.get(scope, [memoryId]), 'visual vectors').to.deep.equal([]);
        expect(await graph.getNodes(scope, [graphIds.memory(memoryId), graphIds.entity(scope, 'zora')]), 'graph').to.deep.equal([]);
      });
    }
  });

  describe('the centroid calibrator', () => {
    const [kept, gone] = [memoryIdOf(`job_${T + 1}_alice`, 0), memoryIdOf(`job_${T + 2}_alice`, 0)];
    const vectorOf = { [kept]: unitVector(DIMS, { 0: 1 }), [gone]: unitVector(DIMS, { 1: 1 }) };
    const committed = (memoryId: string, offset: number): MemoryCommitted => ({
      memoryId, jobId: `job_${T + offset}_alice`, ...scope, partIndex: 0, partCount: 1, createdAt: Date.UTC(2024, 0, 10, 12) + offset,
      embeddingModel: 'test-model@1', vector: Array.from(vectorOf[memoryId]!), version: 1, replacedVector: null,
    });

    it('recomputes the centroid without the memory when its commit comes again unreadable', async () => {
      for (const [offset, id] of [kept, gone].entries()) {
        await stores.vectors.upsert([memoryRecord(scope, id, DIMS, { vector: vectorOf[id]!, jobId: `job_${T + offset + 1}_alice`, createdAt: Date.UTC(2024, 0, 10, 12) + offset + 1 })]);
      }
      await append('committed', [committed(kept, 1), committed(gone, 2)]);
      // The forgetter runs (and recomputes the centroid) before the calibrator's save lands; the save is folded again
      // from what the recompute left, and lands.
      const forgotten = forgetting(gone);
      const centroids: CentroidStore = Object.create(stores.centroids, {
        save: { value: async (...args: Parameters<CentroidStore['save']>) => (await forgotten(), stores.centroids.save(...args)) },
      });
      const check = checkFailingOnce();
      await runToEnd(centroidCalibratorStage, { centroids, keys: check.view, vectors: stores.vectors });

      expect(check.state.failed, 'the first delivery failed after its save, at its check').to.equal(true);
      const centroid = (await stores.centroids.get(scope))!;
      expect(centroid.memoryCount).to.equal(1);
      Array.from(centroid.sum).forEach((x, i) => expect(x, `sum[${i}]`).to.be.closeTo(vectorOf[kept]![i]!, 1e-6));
      expect([...(await stores.centroids.members(scope, [kept, gone])).keys()]).to.deep.equal([kept]);
    });
  });

  describe('the job tracker', () => {
    const jobId = `job_${T + 1}_alice`;

    it('removes the job record when its report comes again unreadable', async () => {
      await append('jobStatus', [jobStatusOf({ jobId, ...scope }, 'Completed', { stage: 'centroid-calibrator', memoryId: memoryIdOf(jobId, 0), partIndex: 0, partCount: 1 })]);
      const forgotten = forgetting(memoryIdOf(jobId, 0));
      const updating: JobStore = Object.create(jobs, {
        update: { value: async (...args: Parameters<JobStore['update']>) => (await forgotten(), jobs.update(...args)) },
      });
      const check = checkFailingOnce();
      await runToEnd(jobTrackerStage, { jobs: updating, keys: check.view });

      expect(check.state.failed, 'the first delivery failed after its write, at its check').to.equal(true);
      expect(await jobs.get(scope.tenantId, jobId)).to.equal(null);
    });
  });

  describe('deleting an updated memory', () => {
    const ingestJob = `job_${T + 1}_alice`;
    const updateJob = `upd_job_${T + 5}_alice`;
    const memoryId = memoryIdOf(ingestJob, 0);
    const version = (jobId: string, content: string): MemoryEnriched => ({
      memoryId, jobId, ...scope, kind: 'text', partIndex: 0, partCount: 1, acceptedAt: jobId === ingestJob ? T + 1 : T + 5, createdAt: T + 1, content, originalContent: content,
      userContext: null, eventTimes: [], memoryType: 'fact', themes: [], synonyms: [], keywords: [], entities: [], sentiment: 'neutral', sentimentScore: 0,
      movieGenre: null, mentionedTitles: [], embeddingModel: 'm@1', vector: [0.6, 0.8], blob: null, image: null, document: null, metadata: null,
      cause: jobId === ingestJob ? 'ingest' : 'update',
    });

    it("destroys the update's key, so a replay of its reports does not bring its job record back", async () => {
      // The memory and its update, written; the update's reports, sealed with the update job's own key, in the log.
      const deps = { vectors: stores.vectors, visualVectors, graph, keys };
      for (const [offset, value] of [version(ingestJob, 'Alice keeps the kayak at the north jetty'), version(updateJob, 'Alice keeps the kayak in the boathouse')].entries()) {
        await dualWriterStage.process([{ event: 'enriched', value, topic: EVENTS.enriched.topic, partition: 0, offset, key: userKey(scope.tenantId, scope.endUserId), timestamp: T + offset }], deps);
      }
      await append('jobStatus', [jobStatusOf({ jobId: updateJob, ...scope }, 'Completed', { stage: 'centroid-calibrator', memoryId, partIndex: 0, partCount: 1 })]);
      await runToEnd(jobTrackerStage, { jobs, keys });
      expect((await jobs.get(scope.tenantId, updateJob))?.state).to.equal('Completed');

      await forgetting(memoryId)();
      expect(await jobs.get(scope.tenantId, updateJob), 'removed by the forgetter').to.equal(null);
      expect([...(await keyStore.forgotten(scope, [updateJob]))]).to.deep.equal([updateJob]);

      // The job tracker's group replayed from the start: the update's report no longer opens.
      await log.resetOffsets(jobTrackerStage.group, EVENTS.jobStatus.topic, { kind: 'earliest' });
      await runToEnd(jobTrackerStage, { jobs, keys });
      expect(await jobs.get(scope.tenantId, updateJob), 'after the replay').to.equal(null);
    });
  });
});
