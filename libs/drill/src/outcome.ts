/** What the drill sends: a text memory, or (in a MinIO drill) an image or a PDF. */
export type MemoryKind = 'text' | 'image' | 'pdf';

/** One ingestion request and how the service answered it. */
export interface Sent {
  index: number;
  kind: MemoryKind;
  /** The text sent (unique per request), null for images and PDFs. */
  content: string | null;
  /** HTTP status, null when no answer came (refused or reset connection, timeout). */
  status: number | null;
  /** The error body's code, or why no answer came. */
  code: string | null;
  retryAfter: string | null;
  jobId: string | null;
  ms: number;
  /** Sent while the engine was stopped (or a process killed and not yet back). */
  duringFault: boolean;
}

/** A job record as GET /v1/jobs/{id} shows it (null: not found or unreadable after the drain). */
export interface JobView {
  status: string;
  memoryIds: string[];
  /** When the job was accepted and last changed (epoch ms; for a Completed job, when it completed); 0 when absent. */
  acceptedAt: number;
  updatedAt: number;
}

/** A memory of the drill's end user as GET /v1/memories lists it. */
export interface StoredMemory {
  id: string;
  content: string;
}

/** The figures of one drill phase. */
export interface Counts {
  sent: number;
  /** Answers counted by status (`no answer` for none), e.g. { '202': 180, '503': 20 }. */
  statuses: Record<string, number>;
  accepted: number;
  completed: number;
  /** Accepted jobs that did not complete, or whose memories are not all in the store. */
  missing: number;
  /** Accepted texts stored more than once (by content). */
  duplicatedByContent: number;
  /** Stored memories claimed by two jobs, or by none of the accepted ones (a redelivery's copy). */
  duplicatedByJob: number;
  /**
   * Texts answered with an error that are in the store anyway: a client's retry would store them twice. Each is
   * also one of duplicatedByJob (a memory no accepted job claims).
   */
  refusedYetStored: number;
}

export const NO_ANSWER = 'no answer';

export function statusKey(sent: Pick<Sent, 'status'>): string {
  return sent.status === null ? NO_ANSWER : String(sent.status);
}

/** Answers counted by status (statusKey). */
export function statusCounts(sent: readonly Pick<Sent, 'status'>[]): Record<string, number> {
  const statuses: Record<string, number> = {};
  for (const request of sent) statuses[statusKey(request)] = (statuses[statusKey(request)] ?? 0) + 1;
  return statuses;
}

/** Counts statuses, acceptances, completions, losses and duplicates from what was sent, the job records and the store. */
export function countOutcome(sent: readonly Sent[], jobs: ReadonlyMap<string, JobView | null>, stored: readonly StoredMemory[]): Counts {
  const statuses = statusCounts(sent);

  const storedIds = new Set(stored.map((memory) => memory.id));
  const copiesOf = new Map<string, number>();
  for (const memory of stored) copiesOf.set(memory.content, (copiesOf.get(memory.content) ?? 0) + 1);

  const accepted = new Map<string, Sent>();
  for (const request of sent) if (request.status === 202 && request.jobId) accepted.set(request.jobId, request);

  let completed = 0;
  let missing = 0;
  let duplicatedByContent = 0;
  const claims = new Map<string, number>();
  for (const [jobId, request] of accepted) {
    const job = jobs.get(jobId) ?? null;
    const done = job?.status === 'Completed';
    if (done) completed += 1;
    for (const id of new Set(job?.memoryIds ?? [])) claims.set(id, (claims.get(id) ?? 0) + 1);
    const copies = request.content === null ? null : (copiesOf.get(request.content) ?? 0);
    const lost = !done || job.memoryIds.length === 0 || job.memoryIds.some((id) => !storedIds.has(id)) || copies === 0;
    if (lost) missing += 1;
    if (copies !== null && copies > 1) duplicatedByContent += 1;
  }
  let duplicatedByJob = 0;
  for (const id of storedIds) if ((claims.get(id) ?? 0) !== 1) duplicatedByJob += 1;

  const acceptedTexts = new Set([...accepted.values()].map((request) => request.content));
  let refusedYetStored = 0;
  for (const request of sent) {
    if (request.status === 202 || request.content === null || acceptedTexts.has(request.content)) continue;
    if ((copiesOf.get(request.content) ?? 0) > 0) refusedYetStored += 1;
  }
  return { sent: sent.length, statuses, accepted: accepted.size, completed, missing, duplicatedByContent, duplicatedByJob, refusedYetStored };
}
