import type { StageSpec, Emit } from '@memory/pipeline-runtime';
import { endOfForgotten, progress } from '@memory/pipeline-runtime';
import { backoffDelay, MemoryServiceError } from '@memory/platform';
import { contentKeyId, isUpdateJob, jobIdOfMemory, memoryIdOf, memoryOfContentKey, userKey, type MemoryEnriched } from '@memory/contracts';
import { graphIds, type GraphEdge, type GraphNode, type GraphStore, type Keyring, type MemoryRecord, type RevisedMemory, type Scope, type StoredMemory, type VectorStore } from '@memory/ports';
import { deleteOrphans, memoriesHeld, removeMemories } from '@memory/stage-forgetter';
import { nextVersion } from './versions.js';

export * from './versions.js';

export interface DualWriterDeps {
  vectors: VectorStore;
  graph: GraphStore;
  /** Visual descriptors of image memories, for search by image. */
  visualVectors: VectorStore;
  /** To see, after the writes, whether a memory was forgotten meanwhile. */
  keys: Pick<Keyring, 'forgotten'>;
}

/** The stored form of an enriched memory. */
export function toMemoryRecord(e: MemoryEnriched): MemoryRecord {
  return {
    id: e.memoryId,
    tenantId: e.tenantId,
    endUserId: e.endUserId,
    jobId: e.jobId,
    kind: e.kind,
    partIndex: e.partIndex,
    partCount: e.partCount,
    content: e.content,
    originalContent: e.originalContent,
    userContext: e.userContext,
    memoryType: e.memoryType,
    themes: e.themes,
    synonyms: e.synonyms,
    keywords: e.keywords,
    entities: e.entities.map((x) => ({ name: x.name, type: x.type, key: x.key })),
    sentiment: e.sentiment,
    sentimentScore: e.sentimentScore,
    movieGenre: e.movieGenre,
    mentionedTitles: e.mentionedTitles,
    createdAt: e.createdAt,
    acceptedAt: e.acceptedAt,
    eventTimes: e.eventTimes.map((t) => ({ ...t })),
    embeddingModel: e.embeddingModel,
    vector: Float32Array.from(e.vector),
    blob: e.blob,
    image: e.image && withoutVisualVector(e.image),
    document: e.document,
    metadata: e.metadata,
  };
}

function withoutVisualVector<T extends { visualVector: number[] }>(image: T): Omit<T, 'visualVector'> {
  const { visualVector: _visualVector, ...facts } = image;
  return facts;
}

/** An image memory as the visual store keeps it: the same record, found by its visual descriptor instead. */
export function toVisualRecord(e: MemoryEnriched): MemoryRecord | null {
  if (!e.image) return null;
  return { ...toMemoryRecord(e), vector: Float32Array.from(e.image.visualVector), embeddingModel: e.image.descriptorVersion };
}

/** The memory's place in the graph: the user owns it, it mentions its entities. Ids are derived, so rewriting is a no-op. */
export function toGraph(e: MemoryEnriched): { nodes: GraphNode[]; edges: GraphEdge[] } {
  const scope = { tenantId: e.tenantId, endUserId: e.endUserId };
  const owner = { tenantId: e.tenantId, endUserId: e.endUserId };
  const userNode = graphIds.user(scope);
  const memoryNode = graphIds.memory(e.memoryId);
  const nodes: GraphNode[] = [
    { id: userNode, kind: 'user', label: e.endUserId, ...owner },
    { id: memoryNode, kind: 'memory', label: e.content.slice(0, 80), ...owner },
  ];
  const edges: GraphEdge[] = [{ from: userNode, to: memoryNode, kind: 'owns', ...owner }];
  for (const entity of e.entities) {
    const entityNode = graphIds.entity(scope, entity.key);
    nodes.push({ id: entityNode, kind: 'entity', label: entity.name, entityType: entity.type, ...owner });
    edges.push({ from: memoryNode, to: entityNode, kind: 'mentions', ...owner });
  }
  if (e.document) {
    // A document's pages hang off its document node and follow each other, so a walk can read on.
    const documentNode = graphIds.document(e.document.documentId);
    nodes.push({ id: documentNode, kind: 'document', label: e.document.fileName ?? e.document.documentId, ...owner });
    edges.push({ from: userNode, to: documentNode, kind: 'owns', ...owner }, { from: documentNode, to: memoryNode, kind: 'contains', ...owner });
    if (e.partIndex + 1 < e.partCount) edges.push({ from: memoryNode, to: graphIds.memory(memoryIdOf(e.jobId, e.partIndex + 1)), kind: 'next', ...owner });
  }
  return { nodes, edges };
}

/**
 * A memory forgotten after this batch was decoded (its key destroyed meanwhile) may have been written after the
 * forgetter removed what was there: checking the tombstones after writing, and removing such memories again, closes
 * that window (a batch that stops before this check is taken back when it comes again: the stage's takeBackForgotten).
 * Returns the ids taken back.
 */
async function takeBackForgotten(memories: MemoryEnriched[], deps: DualWriterDeps): Promise<Set<string>> {
  const taken = new Set<string>();
  for (const group of groupByScope(memories)) {
    const scope = { tenantId: group[0]!.tenantId, endUserId: group[0]!.endUserId };
    const forgottenKeys = await deps.keys.forgotten(scope, group.map(contentKeyId));
    const ids = group.filter((memory) => forgottenKeys.has(contentKeyId(memory))).map((memory) => memory.memoryId);
    if (ids.length === 0) continue;
    await removeMemories(scope, ids, deps);
    for (const id of ids) taken.add(id);
  }
  return taken;
}

function groupByScope(memories: MemoryEnriched[]): MemoryEnriched[][] {
  const groups = new Map<string, MemoryEnriched[]>();
  for (const memory of memories) {
    const key = userKey(memory.tenantId, memory.endUserId);
    groups.set(key, [...(groups.get(key) ?? []), memory]);
  }
  return [...groups.values()];
}

/** What the store holds now of the batch's memories, with the revision a write is conditioned on, by scope and id. */
async function storedMemories(memories: MemoryEnriched[], vectors: VectorStore): Promise<Map<string, RevisedMemory>> {
  const stored = new Map<string, RevisedMemory>();
  for (const group of groupByScope(memories)) {
    const scope = { tenantId: group[0]!.tenantId, endUserId: group[0]!.endUserId };
    for (const read of await vectors.getRevised(scope, [...new Set(group.map((memory) => memory.memoryId))])) stored.set(recordKey(scope, read.record.id), read);
  }
  return stored;
}

const recordKey = (scope: Scope, id: string) => JSON.stringify([scope.tenantId, scope.endUserId, id]);

/**
 * The entities an update drops: those the stored version mentions and the new one does not. Read from the stored
 * record, not the graph, so a retry finds them again however far the previous attempt got.
 */
function droppedEntities(before: StoredMemory, e: MemoryEnriched): string[] {
  const scope = { tenantId: e.tenantId, endUserId: e.endUserId };
  const kept = new Set(e.entities.map((entity) => entity.key));
  return [...new Set(before.entities.filter((entity) => !kept.has(entity.key)).map((entity) => graphIds.entity(scope, entity.key)))];
}

/** Rounds of read, decide and conditional write a batch makes while other writers keep winning; then it fails, retriably. */
const VERSION_ROUNDS = 10;

/** What the dual writer decided for each memory of the batch: the version it has, the vector that version replaced. */
interface Decided {
  versions: Map<MemoryEnriched, number>;
  replaced: Map<MemoryEnriched, number[]>;
  /** Updates of a memory the store no longer holds: deleted since the update was accepted, so not written. */
  gone: Set<MemoryEnriched>;
}

/**
 * One round for these memories: reads what the store holds, decides each one's version (nextVersion), writes the
 * graph, and writes the versions conditioned on what was read. Answers the memories (recordKey) whose version write
 * lost to another writer and so was not applied: the next round reads and decides them again.
 */
async function writeVersions(memories: MemoryEnriched[], { vectors, graph, visualVectors }: DualWriterDeps, decided: Decided): Promise<Set<string>> {
  const stored = await storedMemories(memories, vectors);
  const revisions = new Map([...stored].map(([key, read]) => [key, read.revision]));
  const current = new Map<string, MemoryRecord>([...stored].map(([key, read]) => [key, read.record]));
  const records: MemoryRecord[] = [];
  // The last version of each memory this round writes; its graph is the one the memory keeps.
  const latest = new Map<string, { value: MemoryEnriched; before: StoredMemory | null }>();
  for (const value of memories) {
    const key = recordKey(value, value.memoryId);
    const before = current.get(key) ?? null;
    // A PATCH is accepted only for a memory that exists, and its ingest comes first in the log: a memory an update
    // finds absent was deleted meanwhile. Written, it would stand in the stores (and be read by the forgetter's
    // centroid recompute) until the tombstone check took it back.
    if (before === null && isUpdateJob(value.jobId)) {
      decided.gone.add(value);
      continue;
    }
    const decision = nextVersion(before, value);
    decided.versions.set(value, decision.version);
    decided.replaced.delete(value);
    if (!decision.write) continue;
    // The vector the new version replaces, when the store still held the version just before it.
    if (before && (before.version ?? 1) === decision.version - 1) decided.replaced.set(value, Array.from(before.vector));
    // An updated memory stays the memory its ingestion job made: same job id (for job_id filters and DELETE by
    // job), same acceptance time; the upd_job_ is in its history.
    const madeBy = before ? { jobId: before.jobId, acceptedAt: before.acceptedAt } : { jobId: jobIdOfMemory(value.memoryId) ?? value.jobId, acceptedAt: value.acceptedAt };
    const record: MemoryRecord = { ...toMemoryRecord(value), ...madeBy, version: decision.version, versions: decision.versions };
    current.set(key, record);
    records.push(record);
    latest.set(key, { value, before: latest.get(key)?.before ?? before });
  }
  const written = [...latest.values()];
  const dropping = written.flatMap(({ value, before }) => {
    const entities = before && (before.version ?? 1) !== decided.versions.get(value) ? droppedEntities(before, value) : [];
    return entities.length > 0 ? [{ value, scope: { tenantId: value.tenantId, endUserId: value.endUserId }, entities }] : [];
  });
  const graphs = written.map(({ value }) => toGraph(value));
  const visual = written.map(({ value }) => toVisualRecord(value)).filter((record): record is MemoryRecord => record !== null);
  const writeGraph = () => (graphs.length > 0 ? graph.upsert(graphs.flatMap((g) => g.nodes), graphs.flatMap((g) => g.edges)) : undefined);
  if (dropping.length > 0) {
    // The old memory nodes go with their mentions, the new graph is written, then what nothing mentions any more:
    // all before the vector store takes the new version, which is what a retry reads to know what was dropped.
    for (const { value, scope } of dropping) await graph.deleteNodes(scope, [graphIds.memory(value.memoryId)]);
    await writeGraph();
    for (const { scope, entities } of dropping) await deleteOrphans(scope, entities, 'mentions', graph);
  }
  // Each version is written only if the memory is still what this round read (of a memory written twice, the last
  // record is), so a writer that decided on an older read never replaces a newer version: a consumer dropped from
  // its group while its batch ran, writing when the batch ends, loses to the partition's new owner.
  const writes = records.map((record) => ({ record, ifRevision: revisions.get(recordKey(record, record.id)) ?? null }));
  const [lost] = await Promise.all([
    writes.length > 0 ? vectors.upsertIf(writes) : [],
    visual.length > 0 ? visualVectors.upsert(visual) : undefined,
    dropping.length > 0 ? undefined : writeGraph(),
  ]);
  return new Set(lost.map((record) => recordKey(record, record.id)));
}

/**
 * Commits each memory to the vector store and the graph store; both writes are upserts keyed by derived ids. An
 * update rewrites the memory it names under the same id, numbered from what the store holds (nextVersion), so a
 * search finds the old version until the upsert and the new one after it, never both nor neither. The version
 * write is conditioned on the read it was decided from; one that lost to another writer is read and decided again
 * (a version already stored then reads as written, and the older decision is dropped).
 */
export const dualWriterStage: StageSpec<'enriched', DualWriterDeps> = {
  name: 'dual-writer',
  group: 'dual-writer',
  inputs: ['enriched'],
  outputs: ['committed', 'jobStatus'],
  // Every read and write is of the batch's own end users' memories and graph.
  endUsersApart: true,
  async process(batch, deps) {
    const decided: Decided = { versions: new Map(), replaced: new Map(), gone: new Set() };
    let pending = batch.map(({ value }) => value);
    for (let round = 1; ; round++) {
      const lost = await writeVersions(pending, deps, decided);
      if (lost.size === 0) break;
      if (round >= VERSION_ROUNDS) throw new MemoryServiceError('VECTORS.CONFLICT', `dual writer: ${lost.size} memories still losing to concurrent writers after ${round} rounds`, { retriable: true });
      await new Promise((resolve) => setTimeout(resolve, backoffDelay(round - 1, { initialDelayMs: 5, maxDelayMs: 500, factor: 2 })));
      pending = pending.filter((value) => lost.has(recordKey(value, value.memoryId)));
    }
    const forgotten = await takeBackForgotten(batch.map(({ value }) => value), deps);
    // A memory taken back, or an update of one deleted, is written nowhere; an update of it fails and a PDF's page
    // counts done (endOfForgotten), or the job would wait for this output forever.
    return batch.map(({ value }): Emit[] => forgotten.has(value.memoryId) || decided.gone.has(value) ? [endOfForgotten(value, 'dual-writer')?.emit].filter((emit): emit is Emit => emit !== undefined) : [
      {
        event: 'committed',
        value: {
          memoryId: value.memoryId,
          jobId: value.jobId,
          tenantId: value.tenantId,
          endUserId: value.endUserId,
          partIndex: value.partIndex,
          partCount: value.partCount,
          createdAt: value.createdAt,
          embeddingModel: value.embeddingModel,
          vector: value.vector,
          version: decided.versions.get(value)!,
          replacedVector: decided.replaced.get(value) ?? null,
        },
      },
      progress('dual-writer', value, { partIndex: value.partIndex, partCount: value.partCount }),
    ]);
  },
  // A record that no longer opens seals a forgotten memory (the update of one included): what an earlier delivery
  // wrote of it and did not take back goes from every store.
  async takeBackForgotten(scope, records, deps) {
    const ids = records.map(({ keyId }) => memoryOfContentKey(keyId)).filter((id): id is string => id !== null);
    const held = await memoriesHeld(scope, ids, deps);
    if (held.length > 0) await removeMemories(scope, held, deps);
  },
};
