// Generated from schemas/*/v<latest>.avsc by `npm run generate:types`. Do not edit by hand.
/* eslint-disable */
/** Topic memory.ingest.requested, key tenant/endUser. Published by the edge once a request is valid; the 202 is sent only after this event is durably appended. v2 adds metadata. v3 adds memoryId and cause, for corrections (PATCH) that rewrite an existing memory. */
export interface IngestRequested {
  /** job_|img_job_|doc_job_ + accept millis + end user id. */
  jobId: string;
  tenantId: string;
  endUserId: string;
  kind: SourceKind;
  /** Epoch millis when the edge accepted the request; every relative time resolves against it (or sourceTimestamp). */
  acceptedAt: number;
  /** source.content for text jobs. */
  content: null | string;
  /** Epoch millis of source.timestamp, for backfilling memories with their true reference time. */
  sourceTimestamp: null | number;
  /** IANA zone of the end user (x-end-user-timezone); UTC when null. */
  timeZone: null | string;
  userContext: null | string;
  /** Claim check for images and documents: the bytes live in the blob store, never in the event. */
  blob: null | BlobRef;
  /** The client's metadata of the memory (the request's metadata object): flat keys, string, number or boolean values, validated by the edge (README, Limits). */
  metadata: null | Record<string, string | number | boolean>;
  /** The memory this request rewrites (PATCH /v1/memories/{id}); null for a new memory, whose id is derived from the job. */
  memoryId: null | string;
  /** Why this version exists: ingest (a new memory), update (PATCH), reprocess (a replay with a new model); null reads as ingest. */
  cause: null | ChangeCause;
}

export const SourceKindValues = ['text', 'image', 'document'] as const;
export type SourceKind = (typeof SourceKindValues)[number];

export interface BlobRef {
  key: string;
  contentType: string;
  size: number;
  fileName: null | string;
}

export const ChangeCauseValues = ['ingest', 'update', 'reprocess'] as const;
export type ChangeCause = (typeof ChangeCauseValues)[number];

/** Topic memory.resolved. The request with its relative time references replaced by absolute ISO 8601 timestamps. v2 adds metadata, passed on unchanged. v3 adds memoryId and cause, passed on unchanged. */
export interface MemoryResolved {
  jobId: string;
  tenantId: string;
  endUserId: string;
  kind: SourceKind;
  acceptedAt: number;
  /** The instant relative references were resolved against: sourceTimestamp when given, acceptedAt otherwise. */
  referenceTime: number;
  timeZone: null | string;
  userContext: null | string;
  originalContent: null | string;
  resolvedContent: null | string;
  /** Every time reference found, resolved; what temporal search filters on. */
  eventTimes: Array<TimeMention>;
  blob: null | BlobRef;
  /** The client's metadata of the memory (the request's metadata object): flat keys, string, number or boolean values, validated by the edge (README, Limits). */
  metadata: null | Record<string, string | number | boolean>;
  /** The memory this request rewrites (PATCH /v1/memories/{id}); null for a new memory, whose id is derived from the job. */
  memoryId: null | string;
  /** Why this version exists: ingest (a new memory), update (PATCH), reprocess (a replay with a new model); null reads as ingest. */
  cause: null | ChangeCause;
}

export interface TimeMention {
  /** The words as written, e.g. next Friday. */
  text: string;
  /** Character offset in the original content. */
  index: number;
  /** Epoch millis of the start of the referenced period. */
  start: number;
  /** Epoch millis of the end of the referenced period (exclusive). */
  end: number;
  /** The ISO 8601 text put into the resolved content. */
  iso: string;
  /** True when the words were relative to the reference time. */
  relative: boolean;
}

/** Topic memory.enriched. One event per memory: one for a text or an image, one per page chunk of a PDF. v2 adds what images and documents carry; v3 adds metadata, passed on unchanged. v4 adds cause (an update keeps the memoryId of the memory it rewrites). */
export interface MemoryEnriched {
  /** Derived from jobId and partIndex, so replays rewrite the same memory. */
  memoryId: string;
  jobId: string;
  tenantId: string;
  endUserId: string;
  kind: SourceKind;
  partIndex: number;
  partCount: number;
  acceptedAt: number;
  /** When the memory was recorded: source.timestamp when given, the acceptance time otherwise. */
  createdAt: number;
  /** The resolved text. */
  content: string;
  originalContent: string;
  userContext: null | string;
  eventTimes: Array<TimeMention>;
  /** One of the closed list in libs/enrichment (MEMORY_TYPES). */
  memoryType: string;
  themes: Array<string>;
  synonyms: Array<string>;
  keywords: Array<string>;
  entities: Array<Entity>;
  /** positive, negative, neutral or mixed. */
  sentiment: string;
  /** -1.0 to 1.0. */
  sentimentScore: number;
  movieGenre: null | string;
  mentionedTitles: Array<string>;
  /** name@version of the model that made the vector. */
  embeddingModel: string;
  vector: Array<number>;
  /** The original image or PDF in the blob store (claim check from the ingest event). */
  blob: null | BlobRef;
  /** Image memories: what was seen in the picture. The memory's vector embeds its semantic context (user context, OCR text, colours); visualVector finds similar images. */
  image: null | ImageFacts;
  /** Document memories: which page (and chunk of a long page) of which PDF this memory is. */
  document: null | DocumentPart;
  /** The client's metadata of the memory (the request's metadata object): flat keys, string, number or boolean values, validated by the edge (README, Limits). */
  metadata: null | Record<string, string | number | boolean>;
  /** Why this version exists: ingest (a new memory), update (PATCH), reprocess (a replay with a new model); null reads as ingest. */
  cause: null | ChangeCause;
}

export interface Entity {
  name: string;
  type: EntityType;
  /** Normalised name, the graph node key. */
  key: string;
}

export const EntityTypeValues = ['person', 'place', 'organization', 'title', 'other'] as const;
export type EntityType = (typeof EntityTypeValues)[number];

export interface ImageFacts {
  width: number;
  height: number;
  format: string;
  dominantColours: Array<DominantColour>;
  /** 64-bit DCT hash, 16 hex digits. */
  perceptualHash: string;
  /** EXIF capture time (ms epoch) when present and plausible. */
  capturedAt: null | number;
  /** Text read in the image; empty when none. */
  ocrText: string;
  /** Blob key of the bounded WebP preview. */
  previewKey: string;
  descriptorVersion: string;
  /** Unit-length visual descriptor (libs/image-analysis). */
  visualVector: Array<number>;
}

export interface DominantColour {
  hex: string;
  share: number;
  name: string;
}

export interface DocumentPart {
  /** The document's job id: one document per upload. */
  documentId: string;
  fileName: null | string;
  /** 1-based. */
  pageNumber: number;
  pageCount: number;
  chunkIndex: number;
  chunkCount: number;
  /** Where the page text came from: a scanned page has no text layer. */
  textSource: PageTextSource;
}

export const PageTextSourceValues = ['text_layer', 'ocr', 'none'] as const;
export type PageTextSource = (typeof PageTextSourceValues)[number];

/** Topic memory.committed: the memory is durable in the vector store and the graph store. Also the change feed. v2 adds version: which version of the memory the dual-writer wrote; v3 adds replacedVector: the vector of the version this one replaced. */
export interface MemoryCommitted {
  memoryId: string;
  jobId: string;
  tenantId: string;
  endUserId: string;
  partIndex: number;
  partCount: number;
  createdAt: number;
  embeddingModel: string;
  /** Carried so centroid calibration is a function of its input. */
  vector: Array<number>;
  /** 1 for a memory never updated; each update adds one (assigned by the dual-writer, in log order). */
  version: number;
  /** The vector of the version just before this one, when the dual-writer wrote this version over it; null for a new memory, and when the previous version was already overwritten (a redelivered write). The centroid calibrator swaps a corrected member's vector with it instead of recomputing the centroid. */
  replacedVector: null | Array<number>;
}

/** Topic user.centroid.updated: the end user's semantic centroid after a commit. */
export interface CentroidUpdated {
  tenantId: string;
  endUserId: string;
  embeddingModel: string;
  memoryCount: number;
  /** Unit-length mean of the member vectors. */
  centroid: Array<number>;
  /** Mean cosine similarity of the members to the centroid when each joined. */
  meanSimilarity: number;
  /** The memory id whose commit caused this update. */
  triggeredBy: string;
}

/** Topic job.status: progress of a job (ingestion or forgetting), reported by every stage; projected into the job store. */
export interface JobStatus {
  jobId: string;
  tenantId: string;
  endUserId: string;
  state: JobState;
  /** The stage that reported (temporal-resolver, enricher, dual-writer, ...). */
  stage: null | string;
  partIndex: null | number;
  partCount: null | number;
  /** Set when the part's memory is committed. */
  memoryId: null | string;
  errorCode: null | string;
  /** Why the job failed, in words a user can act on. */
  reason: null | string;
  /** A forgetting job's receipt, with its Completed status: what was removed from each store, counts only. */
  receipt: null | ForgetReceipt;
}

export const JobStateValues = ['Accepted', 'Processing', 'Completed', 'Failed'] as const;
export type JobState = (typeof JobStateValues)[number];

export interface ForgetReceipt {
  /** Memories forgotten. */
  memories: number;
  removed: Array<Removal>;
  /** What the log holds of it now. */
  log: string;
}

export interface Removal {
  /** vectors, visual-vectors, graph, centroid, blobs, jobs, idempotency, keys */
  store: string;
  /** What was counted: memories, nodes, edges, entity nodes, members, objects, records, keys. */
  what: string;
  count: number;
}

/** Topic memory.dead-letter: an event a stage could not process after its retries, with the error. */
export interface DeadLetter {
  stage: string;
  topic: string;
  partition: number;
  offset: number;
  key: string;
  /** The original record value, wire format intact, for replay after a fix. */
  value: Buffer;
  jobId: null | string;
  errorCode: string;
  errorMessage: string;
  attempts: number;
}

/** Topic memory.forget.requested, key tenant/endUser. Published by the edge after it destroyed the data keys of what is forgotten; the forgetter removes it from every store. Ids only: no content. */
export interface ForgetRequested {
  /** del_job_ + accept millis + end user id. */
  jobId: string;
  tenantId: string;
  endUserId: string;
  target: ForgetTarget;
  /** target memory: the memory forgotten. */
  memoryId: null | string;
  /** target job: the job whose memories are forgotten. */
  targetJobId: null | string;
  /** Epoch millis when the edge accepted the request; a user erasure forgets every job accepted before it. */
  acceptedAt: number;
  /** How many data keys the edge destroyed before publishing this event. */
  keysDestroyed: number;
}

export const ForgetTargetValues = ['memory', 'job', 'user'] as const;
export type ForgetTarget = (typeof ForgetTargetValues)[number];
