import { expect } from 'chai';
import fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { lmdbError, lmdbWriteError } from './lmdb-errors.js';

/** How lmdb-js rejects each write of a failed commit: a bare "Commit failed", the cause in `commitError`. */
function failedCommit(cause: Error): Error {
  return Object.assign(new Error('Commit failed (see commitError for details)'), { commitError: Promise.reject(cause) });
}

describe('lmdb errors', () => {
  it('maps a full disk or map, however it is worded, to the retriable DISK_FULL', () => {
    for (const message of ['MDB_MAP_FULL: Environment mapsize limit reached', 'ENOSPC: no space left on device, write', 'No space left on device: Attempting to write page at position 4096', 'EDQUOT: disk quota exceeded']) {
      expect(lmdbError('JOBS', 'job store', 'write', new Error(message)), message).to.include({ code: 'JOBS.DISK_FULL', retriable: true });
    }
    expect(lmdbError('JOBS', 'job store', 'open', new Error('EACCES: permission denied'))).to.include({ code: 'JOBS.NO_ACCESS', retriable: false });
    expect(lmdbError('JOBS', 'job store', 'write', new Error('MDB_BAD_TXN'))).to.include({ code: 'JOBS.STORAGE', retriable: true });
  });

  it('maps a failed lmdb-js commit by its cause, and handles the cause\'s promise', async () => {
    let unhandled = 0;
    const count = () => unhandled++;
    process.on('unhandledRejection', count);
    try {
      const cause = Object.assign(new Error('No space left on device: Attempting to write page at position 1990656'), { code: 28 });
      const error = await lmdbWriteError('EVENTLOG', 'event log', 'append', failedCommit(cause), tmpdir());
      expect(error).to.include({ code: 'EVENTLOG.DISK_FULL', retriable: true });
      expect(error.cause).to.equal(cause);
      expect(await lmdbWriteError('EVENTLOG', 'event log', 'append', new Error('EROFS: read-only file system'), tmpdir())).to.include({ code: 'EVENTLOG.NO_ACCESS' });
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(unhandled).to.equal(0);
    } finally {
      process.off('unhandledRejection', count);
    }
  });

  it('takes a failed write for a full disk when the disk has (almost) no space left, as LMDB words a short write EIO', async () => {
    const shortWrite = () => failedCommit(Object.assign(new Error('Input/output error'), { code: 5 }));
    expect(await lmdbWriteError('EVENTLOG', 'event log', 'append', shortWrite(), tmpdir())).to.include({ code: 'EVENTLOG.STORAGE', retriable: true });
    const statfs = fs.statfs;
    fs.statfs = (async (path: string) => ({ ...(await statfs(path)), bavail: 3, bsize: 4096 })) as typeof fs.statfs;
    try {
      expect(await lmdbWriteError('EVENTLOG', 'event log', 'append', shortWrite(), tmpdir())).to.include({ code: 'EVENTLOG.DISK_FULL', retriable: true });
    } finally {
      fs.statfs = statfs;
    }
  });
});
