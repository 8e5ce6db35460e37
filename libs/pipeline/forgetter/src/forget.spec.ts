import { expect } from 'chai';
import { blobKeyOf, imageBlobKeys } from '@memory/contracts';
import { erasureCovers } from '@memory/ports';
import { inSlices, jobOfBlobKey, receipt } from './forget.js';

describe('forgetter', () => {
  it('reads the job of a blob key, whatever its end user id or file name holds', () => {
    expect(jobOfBlobKey(blobKeyOf('acme', 'a/b c', 'doc_job_1700000000000_a/b c', 'Boiler Manual (2024).pdf'))).to.equal('doc_job_1700000000000_a/b c');
    expect(jobOfBlobKey(imageBlobKeys('acme', 'alice', 'img_job_1700000000005_alice').preview)).to.equal('img_job_1700000000005_alice');
    // An erasure at 1700000000003 takes the PDF of an earlier job, not the image of a later one.
    expect(erasureCovers(jobOfBlobKey(blobKeyOf('acme', 'alice', 'doc_job_1700000000000_alice', 'a.pdf')), 1_700_000_000_003)).to.equal(true);
    expect(erasureCovers(jobOfBlobKey(imageBlobKeys('acme', 'alice', 'img_job_1700000000005_alice').original), 1_700_000_000_003)).to.equal(false);
  });

  it('removes in slices of 500, in order, and adds up what each removed', async () => {
    const seen: number[] = [];
    const removed = await inSlices(Array.from({ length: 1_201 }, (_, i) => `m${i}`), async (slice) => {
      seen.push(slice.length);
      return slice.length - 1;
    });
    expect(seen).to.deep.equal([500, 500, 201]);
    expect(removed).to.equal(1_198);
    expect(await inSlices([], async () => 1)).to.equal(0);
  });

  it('writes receipts of counts only, with what the log still holds', () => {
    const made = receipt(2, [{ store: 'vectors', what: 'memories', count: 2 }], 3);
    expect(made).to.deep.equal({ memories: 2, removed: [{ store: 'vectors', what: 'memories', count: 2 }], log: made.log });
    expect(made.log).to.match(/ciphertext sealed with 3 destroyed data key/);
  });
});
