import { expect } from 'chai';
import { mkdtemp, readdir, rm, utimes, writeFile, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Readable } from 'node:stream';
import type { BlobStore } from '@memory/ports';
import { describeBlobStoreContract, expectCode, tempDirStoreFactory } from '@memory/testing';
import { openFsBlobStore } from './index.js';

describeBlobStoreContract('blobs-fs', tempDirStoreFactory('blobs-fs', (dir) => openFsBlobStore({ dir })));

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

async function text(stream: Readable): Promise<string> {
  let out = '';
  for await (const chunk of stream) out += (chunk as Buffer).toString();
  return out;
}

describe('blobs-fs', () => {
  let dir: string;
  let store: BlobStore;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'blobs-fs-'));
    store = await openFsBlobStore({ dir });
  });

  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps every file inside its root, one per blob, under a readable tenant folder', async () => {
    await store.put('acme corp/u1/a', Buffer.from('a'), 'text/plain');
    await store.put('acme corp/u1/a/b', Buffer.from('b'), 'text/plain');
    await store.put('globex/u2/c', Buffer.from('c'), 'text/plain');
    await expectCode(store.put('acme corp/../../../etc/passwd', Buffer.from('x'), 'text/plain'), 'BLOB.INVALID_KEY');
    const files = await filesUnder(dir);
    expect(files).to.have.length(3);
    for (const file of files) expect(file).to.match(/^blobs\/(acme%20corp|globex)\/[0-9a-f]{2}\/[0-9a-f]{64}$/);
  });

  it('leaves no temporary file behind after writes that succeed or fail', async () => {
    await store.put('t/u/ok', Buffer.alloc(1000), 'text/plain');
    await expectCode(store.put('t/u/big', Buffer.alloc(1000), 'text/plain', { maxBytes: 10 }), 'BLOB.TOO_LARGE');
    await expectCode(store.put('t/u/big', Readable.from([Buffer.alloc(600), Buffer.alloc(600)]), 'text/plain', { maxBytes: 1000 }), 'BLOB.TOO_LARGE');
    expect(await readdir(join(dir, 'tmp'))).to.deep.equal([]);
  });

  it('streams out the version it opened even when the blob is overwritten or deleted meanwhile', async () => {
    await store.put('t/u/doc', Buffer.from('old version'), 'text/plain');
    const reading = await store.get('t/u/doc');
    await store.put('t/u/doc', Buffer.from('new'), 'text/plain');
    await store.delete('t/u/doc');
    expect(await text(reading)).to.equal('old version');
  });

  it('reports a damaged blob file with BLOB.CORRUPT', async () => {
    await store.put('t/u/doc', Buffer.from('fine'), 'text/plain');
    const [file] = await filesUnder(join(dir, 'blobs'));
    const path = join(dir, 'blobs', file!);
    await writeFile(path, (await readFile(path)).subarray(3));
    await expectCode(store.get('t/u/doc'), 'BLOB.CORRUPT');
    await expectCode(store.head('t/u/doc'), 'BLOB.CORRUPT');
  });

  it('removes stale temporary files of a crashed writer on open, and keeps fresh ones', async () => {
    const stale = join(dir, 'tmp', 'stale.tmp');
    const fresh = join(dir, 'tmp', 'fresh.tmp');
    await writeFile(stale, 'half');
    await writeFile(fresh, 'in progress');
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    await utimes(stale, twoHoursAgo, twoHoursAgo);
    await store.close();
    store = await openFsBlobStore({ dir });
    expect(await readdir(join(dir, 'tmp'))).to.deep.equal(['fresh.tmp']);
  });

  it('rejects bad content types and maxBytes with BLOB.INVALID_ARGUMENT', async () => {
    await expectCode(store.put('t/u/x', Buffer.from('x'), 'text/plain\r\nX-Evil: 1'), 'BLOB.INVALID_ARGUMENT');
    await expectCode(store.put('t/u/x', Buffer.from('x'), 'text/plain', { maxBytes: -1 }), 'BLOB.INVALID_ARGUMENT');
    expect(await store.head('t/u/x')).to.equal(null);
  });

  it('validates options before touching the disk', async () => {
    let failure: unknown;
    await openFsBlobStore({ dir: '' }).catch((error: unknown) => (failure = error));
    expect((failure as { code?: string }).code).to.equal('CONFIG.INVALID');
  });
});
