import { expect } from 'chai';
import { S3Error } from 'minio';
import { MemoryServiceError } from '@memory/platform';
import { mapS3Error } from './error-map.js';

function s3Error(code: string): S3Error {
  const error = new S3Error(`S3 said ${code}`);
  error.code = code;
  return error;
}

describe('blobs-minio error map', () => {
  const cases: [string, unknown, string, boolean][] = [
    ['a missing key', s3Error('NoSuchKey'), 'BLOB.NOT_FOUND', false],
    ['a HEAD of a missing key', s3Error('NotFound'), 'BLOB.NOT_FOUND', false],
    ['bad credentials', s3Error('InvalidAccessKeyId'), 'BLOB.UNAUTHORIZED', false],
    ['a server overloaded', s3Error('SlowDown'), 'BLOB.UNAVAILABLE', true],
    ['a server error', s3Error('InternalError'), 'BLOB.UNAVAILABLE', true],
    ['a full disk', s3Error('XMinioStorageFull'), 'BLOB.NO_SPACE', true],
    ['an S3 refusal we do not list', s3Error('InvalidArgument'), 'BLOB.REJECTED', false],
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), 'BLOB.UNAVAILABLE', true],
    ['a reset connection', Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }), 'BLOB.UNAVAILABLE', true],
    ['a 5xx the client hid in a message', new Error('Request failed after 0 retries: Error: Retryable HTTP status: 502'), 'BLOB.UNAVAILABLE', true],
    ['anything else', new Error('surprise'), 'BLOB.FAILED', true],
  ];
  for (const [what, error, code, retriable] of cases) {
    it(`maps ${what} to ${code}${retriable ? ', retriable' : ''}`, () => {
      const mapped = mapS3Error(error, 'reading blob t/u/x');
      expect(mapped).to.be.instanceOf(MemoryServiceError);
      expect(mapped.code).to.equal(code);
      expect(mapped.retriable).to.equal(retriable);
      expect(mapped.cause).to.equal(error);
      expect(mapped.message).to.match(/^reading blob t\/u\/x: /);
    });
  }

  it('passes our own errors through unchanged', () => {
    const ours = new MemoryServiceError('BLOB.TOO_LARGE', 'too big');
    expect(mapS3Error(ours, 'x')).to.equal(ours);
  });
});
