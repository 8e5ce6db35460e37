import { expect } from 'chai';
import { createServer, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { Client } from 'minio';
import type { BlobStore } from '@memory/ports';
import { describeBlobStoreContract, describeWithEngine, expectCode, localEngines, type StoreHarness, uniqueName } from '@memory/testing';
import { minioBlobStoreOptionsFromEnv, openMinioBlobStore, type MinioBlobStoreOptions } from './index.js';

const MiB = 1024 * 1024;
// The smallest part S3 allows, so a few-MB test body goes up in more than one part.
const base: MinioBlobStoreOptions = { ...minioBlobStoreOptionsFromEnv(), partSize: 5 * MiB };

/** A plain client for looking behind the adapter and for cleaning up. */
function rawClient(): Client {
  const url = new URL(base.endpoint);
  return new Client({
    endPoint: url.hostname,
    port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
    useSSL: url.protocol === 'https:',
    accessKey: base.accessKey,
    secretKey: base.secretKey,
    region: 'us-east-1',
    pathStyle: true,
  });
}

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of stream) items.push(item);
  return items;
}

async function removeBucket(bucket: string): Promise<void> {
  const client = rawClient();
  if (!(await client.bucketExists(bucket))) return;
  const objects = await collect(client.listObjects(bucket, '', true));
  if (objects.length) await client.removeObjects(bucket, objects.map((object) => object.name!));
  for (const upload of await collect(client.listIncompleteUploads(bucket, '', true))) {
    await client.abortMultipartUpload(bucket, upload.key, upload.uploadId);
  }
  await client.removeBucket(bucket);
}

/** Each test gets a bucket of its own, which the adapter creates on open; cleanup empties and removes it. */
function bucketPerTest(overrides: Partial<MinioBlobStoreOptions> = {}) {
  return async (): Promise<StoreHarness<BlobStore> & { bucket: string }> => {
    const bucket = uniqueName('blobs-test');
    const open = () => openMinioBlobStore({ ...base, ...overrides, bucket });
    let current: BlobStore | null = await open();
    const harness = {
      bucket,
      store: current,
      async reopen() {
        await current?.close();
        current = null;
        current = await open();
        harness.store = current;
        return current;
      },
      async cleanup() {
        await current?.close();
        current = null;
        await removeBucket(bucket);
      },
    };
    return harness;
  };
}

const minio = localEngines().minio;

describeWithEngine('blobs-minio against MinIO', minio, () => {
  describeBlobStoreContract('blobs-minio', bucketPerTest());

  describe('blobs-minio', function () {
    this.timeout(60_000);
    const cleanups: (() => Promise<void>)[] = [];
    const open = async (overrides: Partial<MinioBlobStoreOptions> = {}) => {
      const harness = await bucketPerTest(overrides)();
      cleanups.push(() => harness.cleanup());
      return harness;
    };
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0)) await cleanup();
    });

    it('creates its bucket on open and keeps each key as the object name, so a tenant is a prefix', async () => {
      const { bucket, store } = await open();
      expect(await rawClient().bucketExists(bucket)).to.equal(true);
      await store.put('acme/u1/a', Buffer.from('a'), 'text/plain');
      await store.put('acme/u2/b', Buffer.from('b'), 'text/plain');
      await store.put('globex/u1/c', Buffer.from('c'), 'text/plain');
      const acme = await collect(rawClient().listObjects(bucket, 'acme/', true));
      expect(acme.map((object) => object.name).sort()).to.deep.equal(['acme/u1/a', 'acme/u2/b']);
    });

    it('puts every key under the configured prefix', async () => {
      const { bucket, store } = await open({ prefix: 'memory/' });
      await store.put('acme/u1/a', Buffer.from('a'), 'image/png');
      const stat = await rawClient().statObject(bucket, 'memory/acme/u1/a');
      expect(stat.size).to.equal(1);
      expect(stat.metaData['content-type']).to.equal('image/png');
    });

    it('leaves no unfinished multipart upload after a streamed put over maxBytes or a failing source', async () => {
      const { bucket, store } = await open();
      const big = Readable.from((function* () {
        for (let i = 0; i < 8; i++) yield Buffer.alloc(MiB, i);
      })());
      await expectCode(store.put('acme/u1/big', big, 'image/png', { maxBytes: 6 * MiB }), 'BLOB.TOO_LARGE');
      let sent = 0;
      const failing = new Readable({
        read() {
          if (sent++ < 6) this.push(Buffer.alloc(MiB, 1));
          else this.destroy(new Error('client went away'));
        },
      });
      await expectCode(store.put('acme/u1/broken', failing, 'image/png'), 'BLOB.SOURCE_FAILED');
      expect(await collect(rawClient().listIncompleteUploads(bucket, '', true))).to.deep.equal([]);
      expect(await collect(rawClient().listObjects(bucket, '', true))).to.deep.equal([]);
    });

    it('aborts the unfinished multipart uploads under a deleted prefix (a failed put whose abort was lost), and no others', async () => {
      const { bucket, store } = await open({ prefix: 'memory/' });
      const raw = rawClient();
      const startUpload = async (objectName: string) => {
        const uploadID = await raw.initiateNewMultipartUpload(bucket, objectName, { 'Content-Type': 'application/pdf' });
        await raw.uploadPart({ bucketName: bucket, objectName, uploadID, partNumber: 1, headers: {} }, Buffer.from('the secret-plans.pdf bytes'));
      };
      await startUpload('memory/acme/u1/job_1/original');
      await startUpload('memory/acme/u2/job_2/original');
      const uploads = async () => (await collect(raw.listIncompleteUploads(bucket, '', true))).map((upload) => upload.key).sort();
      expect(await uploads(), 'the check sees unfinished uploads').to.deep.equal(['memory/acme/u1/job_1/original', 'memory/acme/u2/job_2/original']);
      await store.deletePrefix('acme/u1/');
      expect(await uploads()).to.deep.equal(['memory/acme/u2/job_2/original']);
    });

    it('maps wrong credentials to BLOB.UNAUTHORIZED, not retriable', async () => {
      const error = await openMinioBlobStore({ ...base, secretKey: 'wrong-secret', bucket: uniqueName('blobs-test') }).then(
        () => null,
        (failure: unknown) => failure as { code?: string; retriable?: boolean },
      );
      expect(error?.code).to.equal('BLOB.UNAUTHORIZED');
      expect(error?.retriable).to.equal(false);
    });
  });
});

describe('blobs-minio without a server', () => {
  it('fails to open with BLOB.UNAVAILABLE, retriable, when nothing listens', async () => {
    const error = await openMinioBlobStore({ ...base, endpoint: 'http://127.0.0.1:1', bucket: 'memory-blobs' }).then(
      () => null,
      (failure: unknown) => failure as { code?: string; retriable?: boolean },
    );
    expect(error?.code).to.equal('BLOB.UNAVAILABLE');
    expect(error?.retriable).to.equal(true);
  });

  it('gives up on a server that accepts but never answers, with BLOB.UNAVAILABLE, retriable', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    try {
      const started = Date.now();
      const error = await openMinioBlobStore({ ...base, endpoint: `http://127.0.0.1:${port}`, bucket: 'memory-blobs', idleTimeoutMs: 300 }).then(
        () => null,
        (failure: unknown) => failure as { code?: string; retriable?: boolean },
      );
      expect(error?.code).to.equal('BLOB.UNAVAILABLE');
      expect(error?.retriable).to.equal(true);
      expect(Date.now() - started).to.be.below(5_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('validates every option before connecting and reports all problems at once', async () => {
    const error = await openMinioBlobStore({ endpoint: 'ftp://x/y', accessKey: '', secretKey: 's', bucket: 'Bad_Bucket', prefix: '/p', partSize: 1024 }).then(
      () => null,
      (failure: unknown) => failure as Error & { code?: string },
    );
    expect(error?.code).to.equal('CONFIG.INVALID');
    for (const problem of ['endpoint', 'accessKey', 'bucket', 'prefix', 'partSize']) expect(error?.message).to.include(problem);
  });
});
