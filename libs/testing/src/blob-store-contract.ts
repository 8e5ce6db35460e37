import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { BlobStore } from '@memory/ports';
import type { StoreFactory, StoreHarness } from './store-harness.js';
import { expectCode, uniqueName } from './wait-for.js';

const MiB = 1024 * 1024;
// Over 5 MiB, the smallest S3 multipart part, so an object store adapter that uploads in parts sends more than one.
const LARGE_SIZE = 6 * MiB + 12_345;

/** `size` bytes of a repeatable pseudo-random pattern, produced in chunks so nothing holds it all at once. */
function patternStream(size: number, seed: number, chunkSize = 64 * 1024): Readable {
  let sent = 0;
  let state = seed >>> 0 || 1;
  return new Readable({
    read() {
      if (sent >= size) {
        this.push(null);
        return;
      }
      const chunk = Buffer.allocUnsafe(Math.min(chunkSize, size - sent));
      for (let i = 0; i < chunk.length; i++) {
        // xorshift32: cheap, and no two offsets of a chunk repeat, so a misplaced chunk changes the digest.
        state ^= state << 13;
        state ^= state >>> 17;
        state ^= state << 5;
        chunk[i] = state & 0xff;
      }
      sent += chunk.length;
      this.push(chunk);
    },
  });
}

async function sha256Of(stream: Readable): Promise<{ digest: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { digest: hash.digest('hex'), size };
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A stream that sends `good` bytes and then fails, like an upload whose client went away. */
function failingStream(good: number): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(Buffer.alloc(good, 7));
        return;
      }
      this.destroy(new Error('client went away'));
    },
  });
}

/**
 * The behaviour every BlobStore adapter must show, filesystem or S3. Keys are opaque strings shaped
 * `<tenant>/<endUser>/<id>`; each test uses tenants of its own (unique names), so the suite can run against a
 * shared engine.
 */
export function describeBlobStoreContract(adapterName: string, factory: StoreFactory<BlobStore>): void {
  describe(`BlobStore contract: ${adapterName}`, function () {
    this.timeout(60_000);
    let harness: StoreHarness<BlobStore>;
    let store: BlobStore;
    let tenant: string;
    const key = (id: string, endUser = 'user-1', owner = tenant) => `${owner}/${endUser}/${id}`;

    beforeEach(async () => {
      harness = await factory();
      store = harness.store;
      tenant = uniqueName('tenant');
    });

    afterEach(async () => {
      await harness.cleanup();
    });

    describe('put, get and head', () => {
      it('returns the bytes of a Buffer unchanged, with its size and content type', async () => {
        const body = Buffer.from('%PDF-1.7 \x00\xff\xfe binary bytes \r\n', 'latin1');
        const info = await store.put(key('doc.pdf'), body, 'application/pdf');
        expect(info).to.deep.equal({ key: key('doc.pdf'), size: body.length, contentType: 'application/pdf' });
        expect((await bytesOf(await store.get(key('doc.pdf')))).equals(body)).to.equal(true);
        expect(await store.head(key('doc.pdf'))).to.deep.equal(info);
      });

      it('streams a few megabytes in and out byte for byte', async () => {
        const expected = await sha256Of(patternStream(LARGE_SIZE, 42));
        const info = await store.put(key('scan.png'), patternStream(LARGE_SIZE, 42), 'image/png');
        expect(info).to.deep.equal({ key: key('scan.png'), size: LARGE_SIZE, contentType: 'image/png' });
        expect(await sha256Of(await store.get(key('scan.png')))).to.deep.equal(expected);
        expect(await store.head(key('scan.png'))).to.deep.equal(info);
      });

      it('stores an empty blob', async () => {
        expect(await store.put(key('empty'), Buffer.alloc(0), 'text/plain')).to.deep.equal({ key: key('empty'), size: 0, contentType: 'text/plain' });
        expect((await bytesOf(await store.get(key('empty')))).length).to.equal(0);
        expect((await store.head(key('empty')))?.size).to.equal(0);
      });

      it('stores a blob without a content type as application/octet-stream', async () => {
        expect((await store.put(key('raw'), Buffer.from('x'), '')).contentType).to.equal('application/octet-stream');
        expect((await store.head(key('raw')))?.contentType).to.equal('application/octet-stream');
      });

      it('has no head for an absent key and fails get with BLOB.NOT_FOUND', async () => {
        expect(await store.head(key('missing'))).to.equal(null);
        await expectCode(store.get(key('missing')), 'BLOB.NOT_FOUND');
      });

      it('keeps keys that differ only in case or in their last character apart', async () => {
        await store.put(key('Photo'), Buffer.from('upper'), 'text/plain');
        await store.put(key('photo'), Buffer.from('lower'), 'text/plain');
        await store.put(key('photo.'), Buffer.from('dot'), 'text/plain');
        expect((await bytesOf(await store.get(key('Photo')))).toString()).to.equal('upper');
        expect((await bytesOf(await store.get(key('photo')))).toString()).to.equal('lower');
        expect((await bytesOf(await store.get(key('photo.')))).toString()).to.equal('dot');
      });

      it('accepts keys with spaces, unicode and punctuation', async () => {
        const odd = key('scans 2024/été — €100 (final)+v2.pdf');
        await store.put(odd, Buffer.from('odd'), 'application/pdf');
        expect((await bytesOf(await store.get(odd))).toString()).to.equal('odd');
        expect((await store.head(odd))?.key).to.equal(odd);
      });
    });

    describe('overwrite and delete', () => {
      it('replaces the bytes and content type of a key written again', async () => {
        await store.put(key('img'), Buffer.from('first version, longer'), 'image/png');
        const info = await store.put(key('img'), Buffer.from('second'), 'image/jpeg');
        expect(info).to.deep.equal({ key: key('img'), size: 6, contentType: 'image/jpeg' });
        expect((await bytesOf(await store.get(key('img')))).toString()).to.equal('second');
        expect(await store.head(key('img'))).to.deep.equal(info);
      });

      it('ends concurrent writes of one key with one whole version, never a mix', async () => {
        const versions = ['a', 'b', 'c', 'd'].map((letter) => Buffer.alloc(64 * 1024, letter));
        await Promise.all(versions.map((body) => store.put(key('race'), body, 'application/octet-stream')));
        const read = await bytesOf(await store.get(key('race')));
        expect(versions.some((body) => body.equals(read)), 'one of the written versions').to.equal(true);
      });

      it('deletes a key, and deleting again or deleting an absent key succeeds', async () => {
        await store.put(key('gone'), Buffer.from('bye'), 'text/plain');
        await store.put(key('kept'), Buffer.from('stay'), 'text/plain');
        await store.delete(key('gone'));
        expect(await store.head(key('gone'))).to.equal(null);
        await expectCode(store.get(key('gone')), 'BLOB.NOT_FOUND');
        await store.delete(key('gone'));
        await store.delete(key('never-written'));
        expect((await bytesOf(await store.get(key('kept')))).toString()).to.equal('stay');
      });

      it('deletes by prefix: whole segments only, the filter respected, other users and tenants untouched', async () => {
        for (const k of [key('job_1/original'), key('job_1/preview.webp'), key('job_2/a.pdf'), key('job_1/original', 'user-10'), key('job_1/original', 'user-1', `${tenant}x`)]) {
          await store.put(k, Buffer.from(k), 'text/plain');
        }
        expect(await store.deletePrefix(`${tenant}/user-1/job_1/`)).to.equal(2);
        expect(await store.head(key('job_1/original'))).to.equal(null);
        expect(await store.head(key('job_2/a.pdf'))).to.not.equal(null);
        expect(await store.deletePrefix(`${tenant}/user-1/`, (k) => !k.includes('job_2'))).to.equal(0);
        expect(await store.deletePrefix(`${tenant}/user-1/`)).to.equal(1);
        expect(await store.head(key('job_1/original', 'user-10')), 'user-1/ is not a prefix of user-10/').to.not.equal(null);
        expect(await store.head(key('job_1/original', 'user-1', `${tenant}x`))).to.not.equal(null);
        expect(await store.deletePrefix(`${tenant}/nobody/`)).to.equal(0);
        await expectCode(store.deletePrefix(`${tenant}/user-1`), 'BLOB.INVALID_KEY');
      });

      it('writes a deleted key again', async () => {
        await store.put(key('again'), Buffer.from('one'), 'text/plain');
        await store.delete(key('again'));
        await store.put(key('again'), Buffer.from('two'), 'text/plain');
        expect((await bytesOf(await store.get(key('again')))).toString()).to.equal('two');
      });
    });

    describe('failed writes', () => {
      it('accepts a blob of exactly maxBytes', async () => {
        expect((await store.put(key('exact'), Buffer.alloc(10, 1), 'text/plain', { maxBytes: 10 })).size).to.equal(10);
        expect((await store.put(key('exact-stream'), patternStream(10, 3), 'text/plain', { maxBytes: 10 })).size).to.equal(10);
      });

      it('rejects a Buffer over maxBytes with BLOB.TOO_LARGE and stores nothing', async () => {
        await expectCode(store.put(key('big'), Buffer.alloc(11, 1), 'text/plain', { maxBytes: 10 }), 'BLOB.TOO_LARGE');
        expect(await store.head(key('big'))).to.equal(null);
      });

      it('rejects a stream over maxBytes while it streams, and stores nothing', async () => {
        await expectCode(store.put(key('big-stream'), patternStream(LARGE_SIZE, 9), 'image/png', { maxBytes: 5.5 * MiB }), 'BLOB.TOO_LARGE');
        expect(await store.head(key('big-stream'))).to.equal(null);
        await expectCode(store.get(key('big-stream')), 'BLOB.NOT_FOUND');
      });

      it('keeps the earlier version when an overwrite is too large', async () => {
        await store.put(key('avatar'), Buffer.from('small'), 'image/png');
        await expectCode(store.put(key('avatar'), patternStream(64 * 1024, 5), 'image/png', { maxBytes: 1024 }), 'BLOB.TOO_LARGE');
        expect((await bytesOf(await store.get(key('avatar')))).toString()).to.equal('small');
        expect((await store.head(key('avatar')))?.size).to.equal(5);
      });

      it('stores nothing when the source stream fails part way', async () => {
        let failure: unknown;
        await store.put(key('broken'), failingStream(100_000), 'image/png').catch((error: unknown) => (failure = error));
        expect(failure, 'the put rejects').to.be.instanceOf(Error);
        expect(await store.head(key('broken'))).to.equal(null);
      });
    });

    describe('keys', () => {
      it("never finds one tenant's blob under another tenant's key", async () => {
        const other = uniqueName('tenant');
        await store.put(key('shared-id'), Buffer.from('mine'), 'text/plain');
        expect(await store.head(key('shared-id', 'user-1', other))).to.equal(null);
        await expectCode(store.get(key('shared-id', 'user-1', other)), 'BLOB.NOT_FOUND');
        await store.delete(key('shared-id', 'user-1', other));
        expect((await bytesOf(await store.get(key('shared-id')))).toString()).to.equal('mine');
      });

      it('reads by exact key: a prefix or an extension of a stored key is absent', async () => {
        await store.put(key('photo'), Buffer.from('p'), 'image/png');
        for (const near of [tenant, `${tenant}/user-1`, key('phot'), key('photo2'), `${key('photo')}/thumb`, key('photo', 'user-2')]) {
          expect(await store.head(near), near).to.equal(null);
          await expectCode(store.get(near), 'BLOB.NOT_FOUND');
        }
      });

      it('stores a key and a longer key that starts with it side by side', async () => {
        await store.put(key('photo'), Buffer.from('parent'), 'image/png');
        await store.put(`${key('photo')}/thumb`, Buffer.from('child'), 'image/png');
        expect((await bytesOf(await store.get(key('photo')))).toString()).to.equal('parent');
        expect((await bytesOf(await store.get(`${key('photo')}/thumb`))).toString()).to.equal('child');
        await store.delete(key('photo'));
        expect((await bytesOf(await store.get(`${key('photo')}/thumb`))).toString()).to.equal('child');
      });

      it('rejects invalid keys on every operation with BLOB.INVALID_KEY', async () => {
        const invalid = ['', '/abs/key', '..', `${tenant}/../other/x`, `${tenant}/./x`, `${tenant}//x`, `${tenant}/x/`, `${tenant}/a\0b`, `${tenant}\\x`];
        for (const bad of invalid) {
          await expectCode(store.put(bad, Buffer.from('x'), 'text/plain'), 'BLOB.INVALID_KEY');
          await expectCode(store.get(bad), 'BLOB.INVALID_KEY');
          await expectCode(store.head(bad), 'BLOB.INVALID_KEY');
          await expectCode(store.delete(bad), 'BLOB.INVALID_KEY');
        }
        await expectCode(store.put('x'.repeat(2000), Buffer.from('x'), 'text/plain'), 'BLOB.INVALID_KEY');
      });
    });

    describe('lifecycle', () => {
      it('keeps blobs across close and reopen', async () => {
        await store.put(key('durable'), Buffer.from('still here'), 'text/plain');
        await store.put(key('durable-large'), patternStream(LARGE_SIZE, 11), 'image/png');
        store = await harness.reopen();
        expect((await bytesOf(await store.get(key('durable')))).toString()).to.equal('still here');
        expect(await store.head(key('durable'))).to.deep.equal({ key: key('durable'), size: 10, contentType: 'text/plain' });
        expect(await sha256Of(await store.get(key('durable-large')))).to.deep.equal(await sha256Of(patternStream(LARGE_SIZE, 11)));
      });

      it('rejects use after close with BLOB.CLOSED; close twice is fine', async () => {
        await store.close();
        await store.close();
        await expectCode(store.put(key('late'), Buffer.from('x'), 'text/plain'), 'BLOB.CLOSED');
        await expectCode(store.get(key('late')), 'BLOB.CLOSED');
        await expectCode(store.head(key('late')), 'BLOB.CLOSED');
        await expectCode(store.delete(key('late')), 'BLOB.CLOSED');
      });
    });
  });
}
