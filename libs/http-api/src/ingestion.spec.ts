import { expect } from 'chai';
import type { AvroCodec } from '@memory/contracts';
import type { BlobInfo, BlobStore, EventLog, JobStore, Keyring } from '@memory/ports';
import { createLogger, errorCode, MemoryServiceError } from '@memory/platform';
import { drawReceipt } from '@memory/testing';
import { createIngestion } from './ingestion.js';

/** A blob store in a Map: what an image's accept leaves stored. */
function mapBlobs() {
  const stored = new Map<string, Buffer>();
  const blobs = {
    async put(key: string, body: Buffer, contentType: string): Promise<BlobInfo> {
      stored.set(key, body);
      return { key, contentType, size: body.length };
    },
    async delete(key: string) {
      stored.delete(key);
    },
  } as unknown as BlobStore;
  return { blobs, stored };
}

describe('image ingestion', () => {
  it('deletes the image and its preview when the end user was erased while it was being accepted', async () => {
    const { blobs, stored } = mapBlobs();
    const appended: unknown[] = [];
    const ingestion = createIngestion({
      // The erasure destroyed the job's key between the files' upload and the event's sealing.
      codec: { encode: async () => Promise.reject(new MemoryServiceError('KEY.FORGOTTEN', 'the key is destroyed')) } as unknown as AvroCodec,
      log: { append: async (...args: unknown[]) => appended.push(args) } as unknown as EventLog,
      jobs: {} as JobStore,
      keys: {} as Keyring,
      blobs,
      logger: createLogger({}, 'silent'),
      issueJobId: async () => ({ jobId: 'img_job_1700000000000_ada', acceptedAt: 1_700_000_000_000 }),
    });
    const refused = await ingestion.acceptImage('acme', 'ada', null, { image: await drawReceipt(), userContext: null, metadata: null }).catch((error: unknown) => error);
    expect(errorCode(refused)).to.equal('REQUEST.END_USER_ERASED');
    expect(appended).to.deep.equal([]);
    expect([...stored.keys()], 'nothing of a job that does not exist').to.deep.equal([]);
  });
});
