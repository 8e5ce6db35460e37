import { errors, type Client, type estypes } from '@elastic/elasticsearch';
import { MemoryServiceError } from '@memory/platform';
import { abandonedJobId, jobIdOfRecord, type ClaimRequest, type ClaimResult, type IdempotencyClaim, type IdempotencyStore, type Scope, type StoredResponse } from '@memory/ports';
import type { SharedClient } from './client.js';
import { DelayedExpunge } from './delayed-expunge.js';
import { readDocument } from './documents.js';
import { call, engineError, failureError } from './errors.js';
import { documentId } from './names.js';
import { retryOnConflict, VersionConflict } from './retry-conflicts.js';

interface IdempotencyDocument {
  tenantId: string;
  endUserId: string;
  key: string;
  fingerprint: string;
  leaseUntil: number;
  expiresAt: number;
  /** Null while the claim is in progress. */
  response: StoredResponse | null;
  /**
   * The job the claim's request creates (ClaimRequest.jobId), or once answered the one its answer names
   * (jobIdOfRecord); absent in documents written before it was kept. Indexed since schema 8, for forgetJobs.
   */
  jobId?: string | null;
}

const FAMILY = 'IDEMPOTENCY';
const DELETE_PAGE = 1_000;
const status = (error: unknown) => (error instanceof errors.ResponseError ? error.meta.statusCode : undefined);
const isLive = (doc: IdempotencyDocument, now: number) => doc.expiresAt > now && (doc.response !== null || doc.leaseUntil > now);

/**
 * IdempotencyStore on one index, one document per (tenant, end user, key), _id derived from the three. A claim is
 * a create with op_type=create: of concurrent claims, across edge processes, Elasticsearch lets exactly one create
 * the document. Only when that fails does the claim read the record (a realtime GET) and, when it expired or its
 * lease ran out, take it over with if_seq_no/if_primary_term, which again only one claimant wins. The claim's token
 * is the version it wrote, so completing and releasing are conditional writes on it: a holder whose lease ran out
 * and whose key was taken over changes nothing. Conditional writes are never resent by the client (see
 * documents.ts).
 *
 * Removals by scope or by age search the index and delete what they found (deleteWhere). A stored answer can name a
 * file (a PDF's storagePath), so what forgetting deletes is expunged from the index's files a delay later
 * (DelayedExpunge), as memories are. What the expiry sweep removes was not asked to be forgotten (the job records
 * keep the same names), and a released claim holds no answer: both are left to merges, and to the next forget's
 * expunge, which takes every deleted document of the index. An expunge after every sweep would rewrite most of a
 * high-churn index each time.
 */
export class ElasticsearchIdempotencyStore implements IdempotencyStore {
  private readonly client: Client;
  private readonly expunge: DelayedExpunge;
  private closed = false;

  constructor(
    private readonly shared: SharedClient,
    private readonly index: string,
    expungeDelayMs: number,
  ) {
    this.client = shared.acquire();
    this.expunge = new DelayedExpunge(this.client, index, expungeDelayMs);
  }

  async claim(scope: Scope, key: string, request: ClaimRequest): Promise<ClaimResult> {
    this.checkOpen();
    const id = recordId(scope, key);
    const what = `claim idempotency key of ${scope.tenantId}/${scope.endUserId}`;
    const fresh: IdempotencyDocument = {
      tenantId: scope.tenantId,
      endUserId: scope.endUserId,
      key,
      fingerprint: request.fingerprint,
      leaseUntil: request.now + request.leaseMs,
      expiresAt: request.now + request.ttlMs,
      response: null,
      jobId: request.jobId ?? null,
    };
    let stored = await this.write(what, id, fresh, { op_type: 'create' });
    if (stored) return { state: 'claimed', claim: stored, earlierJobId: null };
    return retryOnConflict(FAMILY, what, async () => {
      const current = await readDocument<IdempotencyDocument>(this.client, FAMILY, what, this.index, id);
      if (current && isLive(current.source, request.now)) {
        const { fingerprint, response } = current.source;
        return response ? { state: 'completed', fingerprint, response } : { state: 'in-progress', fingerprint };
      }
      const condition = current ? { if_seq_no: current.seqNo, if_primary_term: current.primaryTerm } : { op_type: 'create' as const };
      const earlierJobId = abandonedJobId(current?.source, request);
      stored = await this.write(what, id, { ...fresh, jobId: earlierJobId ?? fresh.jobId }, condition);
      if (!stored) throw new VersionConflict();
      return { state: 'claimed', claim: stored, earlierJobId };
    });
  }

  async complete(scope: Scope, key: string, claim: IdempotencyClaim, response: StoredResponse, options: { now: number; ttlMs: number }): Promise<boolean> {
    this.checkOpen();
    const id = recordId(scope, key);
    const { seqNo, primaryTerm } = parseToken(claim.token);
    const held = heldDocument(claim);
    const done = { ...held, response, expiresAt: options.now + options.ttlMs, jobId: jobIdOfRecord({ jobId: held.jobId, response }) };
    return (await this.write(`complete idempotency key of ${scope.tenantId}/${scope.endUserId}`, id, done, { if_seq_no: seqNo, if_primary_term: primaryTerm })) !== null;
  }

  async release(scope: Scope, key: string, claim: IdempotencyClaim): Promise<void> {
    this.checkOpen();
    const id = recordId(scope, key);
    const version = parseToken(claim.token);
    try {
      await this.client.delete({ index: this.index, id, if_seq_no: version.seqNo, if_primary_term: version.primaryTerm, refresh: false }, { maxRetries: 0 });
    } catch (error) {
      // Already gone, or taken over by another claim: either way not ours to delete.
      if (status(error) === 404 || status(error) === 409) return;
      throw engineError(FAMILY, `release idempotency key of ${scope.tenantId}/${scope.endUserId}`, error);
    }
  }

  async abandon(scope: Scope, key: string, claim: IdempotencyClaim, now: number): Promise<void> {
    this.checkOpen();
    const { seqNo, primaryTerm } = parseToken(claim.token);
    // A 409 (taken over, or gone) leaves the record to its new holder.
    await this.write(`abandon idempotency key of ${scope.tenantId}/${scope.endUserId}`, recordId(scope, key), { ...heldDocument(claim), leaseUntil: now }, { if_seq_no: seqNo, if_primary_term: primaryTerm });
  }

  removeExpired(now: number): Promise<number> {
    return this.deleteWhere('remove expired idempotency records', { range: { expiresAt: { lte: now } } });
  }

  forgetJobs(scope: Scope, jobIds: string[]): Promise<number> {
    checkScope(scope);
    const forgotten = [...new Set(jobIds)];
    return this.forgetWhere(`forget the idempotency records of ${forgotten.length} job(s) of ${scope.tenantId}/${scope.endUserId}`, {
      bool: { filter: [...userFilter(scope), { terms: { jobId: forgotten } }] },
    });
  }

  forgetUser(scope: Scope): Promise<number> {
    checkScope(scope);
    return this.forgetWhere(`forget the idempotency records of ${scope.tenantId}/${scope.endUserId}`, { bool: { filter: userFilter(scope) } });
  }

  forgetTenant(tenantId: string): Promise<number> {
    checkScope({ tenantId, endUserId: '-' });
    return this.forgetWhere(`forget the idempotency records of tenant ${tenantId}`, { term: { tenantId } });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.expunge.cancel();
    await this.shared.release();
  }

  /**
   * Writes the document under a condition; null when the condition failed. The claim it returns carries the document
   * as written, so completing it is one conditional write, with no read first.
   */
  private async write(what: string, id: string, document: IdempotencyDocument, condition: { op_type: 'create' } | { if_seq_no: number; if_primary_term: number }): Promise<HeldClaim | null> {
    try {
      const written = await this.client.index({ index: this.index, id, document, refresh: false, ...condition }, { maxRetries: 0 });
      return { token: versionToken({ seqNo: written._seq_no!, primaryTerm: written._primary_term! }), document };
    } catch (error) {
      if (status(error) === 409) return null;
      throw engineError(FAMILY, what, error);
    }
  }

  /** Deletes what forgetting removes, and has it expunged from the index's files. */
  private async forgetWhere(what: string, query: estypes.QueryDslQueryContainer): Promise<number> {
    const removed = await this.deleteWhere(what, query);
    if (removed > 0) this.expunge.schedule();
    return removed;
  }

  /**
   * Deletes the documents a query matches, a page at a time: search (after a refresh, so writes of a moment ago are
   * seen), then a bulk delete conditional on the version read, so a record claimed again meanwhile is not removed by
   * an expiry sweep (a forget finds it again on the next page). The engines we run have no reindex module, hence no
   * _delete_by_query.
   */
  private async deleteWhere(what: string, query: estypes.QueryDslQueryContainer): Promise<number> {
    this.checkOpen();
    await call(FAMILY, what, () => this.client.indices.refresh({ index: this.index }));
    let removed = 0;
    for (;;) {
      const page = await call(FAMILY, what, () =>
        this.client.search({ index: this.index, query, size: DELETE_PAGE, _source: false, seq_no_primary_term: true, track_total_hits: false }),
      );
      const hits = page.hits.hits;
      if (hits.length === 0) return removed;
      const operations = hits.map((hit) => ({ delete: { _index: this.index, _id: hit._id!, if_seq_no: hit._seq_no!, if_primary_term: hit._primary_term! } }));
      const result = await call(FAMILY, what, () => this.client.bulk({ operations, refresh: true }));
      for (const item of result.items.map((entry) => Object.values(entry)[0] as estypes.BulkResponseItem)) {
        if (item.result === 'deleted') removed += 1;
        else if (item.error && item.status !== 404 && item.status !== 409) {
          throw failureError(FAMILY, `${what} (${item._id})`, { status: item.status, type: item.error.type, reason: item.error.reason ?? undefined });
        }
      }
    }
  }

  private checkOpen(): void {
    if (this.closed) throw new MemoryServiceError('IDEMPOTENCY.CLOSED', 'the idempotency store is closed');
  }
}

interface HeldClaim extends IdempotencyClaim {
  document: IdempotencyDocument;
}

function heldDocument(claim: IdempotencyClaim): IdempotencyDocument {
  const document = (claim as Partial<HeldClaim>).document;
  if (!document) throw new MemoryServiceError('IDEMPOTENCY.INVALID_ARGUMENT', 'not a claim of this store');
  return document;
}

const versionToken = (version: { seqNo: number; primaryTerm: number }) => `${version.seqNo}:${version.primaryTerm}`;

function parseToken(token: string): { seqNo: number; primaryTerm: number } {
  const [seqNo, primaryTerm] = token.split(':').map(Number);
  if (!Number.isInteger(seqNo) || !Number.isInteger(primaryTerm)) throw new MemoryServiceError('IDEMPOTENCY.INVALID_ARGUMENT', 'not a claim of this store');
  return { seqNo: seqNo!, primaryTerm: primaryTerm! };
}

function checkScope(scope: Scope): void {
  if (typeof scope?.tenantId !== 'string' || scope.tenantId === '' || typeof scope.endUserId !== 'string' || scope.endUserId === '') {
    throw new MemoryServiceError('IDEMPOTENCY.INVALID_ARGUMENT', 'idempotency records are scoped by a non-empty tenantId and endUserId');
  }
}

/** The records of one end user. */
function userFilter(scope: Scope): estypes.QueryDslQueryContainer[] {
  return [{ term: { tenantId: scope.tenantId } }, { term: { endUserId: scope.endUserId } }];
}

function recordId(scope: Scope, key: string): string {
  checkScope(scope);
  if (typeof key !== 'string' || key === '') throw new MemoryServiceError('IDEMPOTENCY.INVALID_ARGUMENT', 'an idempotency key is a non-empty string');
  return documentId(scope.tenantId, scope.endUserId, key);
}
