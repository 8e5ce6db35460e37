import type { BlobRef, ChangeCause, DocumentPart, EntityType, ImageFacts, SourceKind, TimeMention } from '@memory/contracts';

/** Who a memory belongs to: every read and write of a store is confined to one tenant and one end user. */
export interface Scope {
  tenantId: string;
  endUserId: string;
}

/**
 * The client's own fields of a memory (the `metadata` object of an ingestion request): flat, string, finite number or
 * boolean values; the edge enforces the limits (README, Limits).
 */
export type MemoryMetadata = Record<string, string | number | boolean>;

/** The bounds of a memory's metadata (README, Limits), shared by ingestion and the filters that read it. */
export const METADATA_LIMITS = {
  maxKeys: 32,
  /** A key: 1-64 characters of letters, digits, _ and -, so `metadata.<key>=<value>` query parameters read one way. */
  keyPattern: /^[A-Za-z0-9_-]{1,64}$/,
  maxStringChars: 512,
  /** The whole object as JSON, in UTF-8 bytes. */
  maxJsonBytes: 4 * 1024,
} as const;

/** A metadata key: METADATA_LIMITS.keyPattern, and not __proto__, which the pattern allows but which sets an object's prototype when assigned. */
export function isMetadataKey(key: string): boolean {
  return METADATA_LIMITS.keyPattern.test(key) && key !== '__proto__';
}

/** The stored form of a memory: what search returns as payload, plus the vector it is found by. */
export interface MemoryRecord {
  id: string;
  tenantId: string;
  endUserId: string;
  jobId: string;
  kind: SourceKind;
  partIndex: number;
  partCount: number;
  content: string;
  originalContent: string;
  userContext: string | null;
  memoryType: string;
  themes: string[];
  synonyms: string[];
  keywords: string[];
  entities: Array<{ name: string; type: EntityType; key: string }>;
  sentiment: string;
  sentimentScore: number;
  movieGenre: string | null;
  mentionedTitles: string[];
  /** When it was recorded, ms epoch. */
  createdAt: number;
  /** When the request was accepted, ms epoch. */
  acceptedAt: number;
  /** When the things it mentions happen: the resolved time references. */
  eventTimes: TimeMention[];
  embeddingModel: string;
  vector: Float32Array;
  /** Images and PDFs: the original in the blob store. */
  blob?: BlobRef | null;
  /** Images: what was seen; the visual descriptor itself lives in the visual vector store, not here. */
  image?: Omit<ImageFacts, 'visualVector'> | null;
  /** PDF pages: which page (and chunk) of which document. */
  document?: DocumentPart | null;
  /** The client's metadata; null or absent when the request had none (and on memories stored before it existed). */
  metadata?: MemoryMetadata | null;
  /** 1 for a memory never updated; each update (PATCH) adds one. Absent on memories stored before versions: 1. */
  version?: number;
  /**
   * Every version's content, oldest first, ending with this one: the history, kept in the record so it is written,
   * replaced and deleted with the memory in the same write. Absent on memories stored before versions.
   */
  versions?: MemoryVersion[];
}

/** One version of a memory, as GET /v1/memories/{id}/history shows it. */
export interface MemoryVersion {
  version: number;
  /** The job that wrote it: the ingestion job for version 1, an upd_job_ for each update. */
  jobId: string;
  /** The memory's content in that version (the resolved text, as payload.content shows it). */
  content: string;
  /** When the job that wrote it was accepted, ms epoch. */
  changedAt: number;
  cause: ChangeCause;
}

/** A stored memory's history, oldest first; a memory stored before versions existed has its one version. */
export function versionsOf(memory: Omit<MemoryRecord, 'vector'>): MemoryVersion[] {
  return memory.versions ?? [{ version: memory.version ?? 1, jobId: memory.jobId, content: memory.content, changedAt: memory.acceptedAt, cause: 'ingest' }];
}

export interface ScoredId {
  id: string;
  /** Cosine similarity, -1..1. */
  score: number;
  /**
   * When the memory was created (ms epoch), where the store reads it with the hit at no extra cost (Elasticsearch's
   * doc values): episode context then needs no separate read of the seeds' creation times.
   */
  createdAt?: number;
}
