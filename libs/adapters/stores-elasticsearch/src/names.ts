import { createHash } from 'node:crypto';

export interface IndexNames {
  memories: string;
  centroids: string;
  centroidMembers: string;
  jobs: string;
  keys: string;
  idempotency: string;
  webhooks: string;
  webhookDeliveries: string;
  webhookJobs: string;
}

/** One index per kind of document; each template carries the same name as the one index it shapes. */
export function indexNames(prefix: string): IndexNames {
  return {
    memories: `${prefix}-memories`,
    centroids: `${prefix}-centroids`,
    centroidMembers: `${prefix}-centroid-members`,
    jobs: `${prefix}-jobs`,
    keys: `${prefix}-keys`,
    idempotency: `${prefix}-idempotency`,
    webhooks: `${prefix}-webhooks`,
    webhookDeliveries: `${prefix}-webhook-deliveries`,
    webhookJobs: `${prefix}-webhook-jobs`,
  };
}

/**
 * The document _id of a key such as [tenantId, endUserId, memoryId]. Derived, never drawn, so a redelivered write
 * lands on the same document; scoped, because two tenants (or two end users) may use the same memory id; hashed,
 * because _id is limited to 512 bytes and ids are arbitrary text. JSON keeps ["a/x", "y"] and ["a", "x/y"] apart.
 * The readable ids stay in the document's fields.
 */
export function documentId(...parts: string[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
}
