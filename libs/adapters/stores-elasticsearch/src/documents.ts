import { errors, type Client } from '@elastic/elasticsearch';
import { timeStep } from '@memory/platform';
import { engineError, type Family } from './errors.js';
import { VersionConflict } from './retry-conflicts.js';

/** A document read by id, with the version a conditional write needs. */
export interface Versioned<T> {
  source: T;
  seqNo: number;
  primaryTerm: number;
}

const status = (error: unknown) => (error instanceof errors.ResponseError ? error.meta.statusCode : undefined);

/**
 * A realtime GET: it sees every acknowledged write without waiting for a refresh. Null when the document does not
 * exist; a missing index is an error (NO_INDEX), not an empty store, so a dropped index is noticed.
 */
export async function readDocument<T>(client: Client, family: Family, what: string, index: string, id: string): Promise<Versioned<T> | null> {
  try {
    const response = await timeStep('elasticsearch', () => client.get<T>({ index, id }));
    if (!response.found || response._source === undefined) return null;
    return { source: response._source, seqNo: response._seq_no!, primaryTerm: response._primary_term! };
  } catch (error) {
    const body = error instanceof errors.ResponseError ? (error.meta.body as { found?: boolean } | undefined) : undefined;
    if (status(error) === 404 && body?.found === false) return null;
    throw engineError(family, what, error);
  }
}

/**
 * Writes `document` only if the stored one is still `expected` (or, with null, still absent); a lost race throws
 * VersionConflict. The client's own retries are off for this request: a retry of a write that did land but whose
 * answer was lost would report a conflict, and the caller would apply its change a second time.
 */
export async function writeIfUnchanged<T>(
  client: Client,
  family: Family,
  what: string,
  target: { index: string; id: string },
  document: T,
  expected: Versioned<unknown> | null,
): Promise<void> {
  const condition = expected ? { if_seq_no: expected.seqNo, if_primary_term: expected.primaryTerm } : { op_type: 'create' as const };
  try {
    await timeStep('elasticsearch', () => client.index({ index: target.index, id: target.id, document, refresh: false, ...condition }, { maxRetries: 0 }));
  } catch (error) {
    if (status(error) === 409) throw new VersionConflict();
    throw engineError(family, what, error);
  }
}

/** Deletes a document only if it is still `expected`; a lost race throws VersionConflict, a missing one too. */
export async function deleteIfUnchanged(client: Client, family: Family, what: string, target: { index: string; id: string }, expected: Versioned<unknown>): Promise<void> {
  try {
    await timeStep('elasticsearch', () => client.delete({ index: target.index, id: target.id, if_seq_no: expected.seqNo, if_primary_term: expected.primaryTerm, refresh: false }, { maxRetries: 0 }));
  } catch (error) {
    if (status(error) === 409 || status(error) === 404) throw new VersionConflict();
    throw engineError(family, what, error);
  }
}
