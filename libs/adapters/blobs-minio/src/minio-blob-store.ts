import * as http from 'node:http';
import * as https from 'node:https';
import { Readable } from 'node:stream';
import { Client } from 'minio';
import { MemoryServiceError } from '@memory/platform';
import type { BlobInfo, BlobStore } from '@memory/ports';
import { mapS3Error } from './error-map.js';
import { checkContentType, checkKey, checkMaxBytes, checkPrefix, DEFAULT_CONTENT_TYPE, MAX_KEY_BYTES, tooLarge } from '@memory/ports';
import type { MinioBlobStoreSettings } from './options.js';
import { uploadStream } from './upload.js';

/**
 * Blobs in one S3/MinIO bucket. Keys already begin with the tenant (`<tenant>/<endUser>/<id>`), so each tenant is
 * a key prefix rather than a bucket of its own: S3 caps buckets per account (100 by default) and creating one per
 * tenant would need bucket-admin rights at run time, whereas a prefix is free, and lifecycle rules, bucket
 * policies, replication and `mc rm --recursive` for forgetting a tenant all select by prefix just as well.
 */
export class MinioBlobStore implements BlobStore {
  private closed = false;
  private readonly inFlight = new Set<Promise<unknown>>();

  private constructor(
    private readonly client: Client,
    private readonly agent: http.Agent,
    private readonly settings: MinioBlobStoreSettings,
  ) {}

  /** Connects and creates the bucket if it is missing; fails (retriably, when the server is down) if it cannot. */
  static async open(settings: MinioBlobStoreSettings): Promise<MinioBlobStore> {
    const agent = settings.useSSL ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
    const client = new Client({
      endPoint: settings.endPoint,
      port: settings.port,
      useSSL: settings.useSSL,
      accessKey: settings.accessKey,
      secretKey: settings.secretKey,
      // Known up front, the region spares a bucket-location request before the first call on the bucket.
      region: settings.region,
      pathStyle: true,
      transport: withIdleTimeout(settings.useSSL ? https : http, settings.idleTimeoutMs),
      transportAgent: agent,
      // The client's retry hides the S3 error code behind a plain Error and logs to the console; our errors say
      // whether to retry and the caller's retry helper decides.
      retryOptions: { disableRetry: true },
    });
    const store = new MinioBlobStore(client, agent, settings);
    try {
      await store.ensureBucket();
    } catch (error) {
      agent.destroy();
      throw error;
    }
    return store;
  }

  put(key: string, body: Readable | Buffer, contentType: string, options: { maxBytes?: number } = {}): Promise<BlobInfo> {
    return this.track(async () => {
      const objectName = this.objectName(key);
      const type = checkContentType(contentType);
      const maxBytes = checkMaxBytes(options.maxBytes);
      if (Buffer.isBuffer(body) && body.length > maxBytes) throw tooLarge(key, maxBytes);
      const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
      const { bucket, partSize } = this.settings;
      const size = await uploadStream({ client: this.client, bucket, objectName, key, contentType: type, partSize, maxBytes }, source);
      return { key, size, contentType: type };
    });
  }

  get(key: string): Promise<Readable> {
    return this.track(async () => {
      const objectName = this.objectName(key);
      let response: Readable;
      try {
        response = await this.client.getObject(this.settings.bucket, objectName);
      } catch (error) {
        throw mapS3Error(error, `reading blob ${key}`);
      }
      return Readable.from(relay(response, key), { objectMode: false });
    });
  }

  head(key: string): Promise<BlobInfo | null> {
    return this.track(async () => {
      const objectName = this.objectName(key);
      try {
        const stat = await this.client.statObject(this.settings.bucket, objectName);
        const contentType = (stat.metaData as Record<string, unknown>)['content-type'];
        return { key, size: stat.size, contentType: typeof contentType === 'string' && contentType ? contentType : DEFAULT_CONTENT_TYPE };
      } catch (error) {
        const mapped = mapS3Error(error, `reading blob ${key}`);
        if (mapped.code === 'BLOB.NOT_FOUND') return null;
        throw mapped;
      }
    });
  }

  delete(key: string): Promise<void> {
    return this.track(async () => {
      const objectName = this.objectName(key);
      try {
        // S3 answers a delete of a missing object with success, which is the idempotence the port wants.
        await this.client.removeObject(this.settings.bucket, objectName);
      } catch (error) {
        throw mapS3Error(error, `deleting blob ${key}`);
      }
    });
  }

  deletePrefix(prefix: string, only: (key: string) => boolean = () => true): Promise<number> {
    return this.track(async () => {
      const objectPrefix = this.settings.prefix + checkPrefix(prefix);
      try {
        const names: string[] = [];
        for await (const item of this.client.listObjectsV2(this.settings.bucket, objectPrefix, true)) {
          if (item.name && only(item.name.slice(this.settings.prefix.length))) names.push(item.name);
        }
        if (names.length > 0) await this.client.removeObjects(this.settings.bucket, names);
        await this.abortUploadsUnder(objectPrefix, only);
        return names.length;
      } catch (error) {
        throw mapS3Error(error, `deleting blobs under ${prefix}`);
      }
    });
  }

  /** Waits for puts, heads and deletes under way, then drops the connections; downloads still streaming end. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.allSettled([...this.inFlight]);
    this.agent.destroy();
  }

  /**
   * Aborts the multipart uploads left unfinished under the prefix: their parts hold a file's bytes, and a put that
   * failed only aborts its upload best effort (upload.ts), so a forgotten file could otherwise outlive its erasure.
   * MinIO lists the uploads of an exact object name or of the whole bucket, not those under a shorter prefix, so the
   * bucket's are listed and filtered here (by pages: the client's own listing also reads every upload's parts).
   */
  private async abortUploadsUnder(objectPrefix: string, only: (key: string) => boolean): Promise<void> {
    const { bucket, prefix } = this.settings;
    let marker = { key: '', uploadId: '' };
    for (;;) {
      const page = await this.client.listIncompleteUploadsQuery(bucket, '', marker.key, marker.uploadId, '');
      for (const { key, uploadId } of page.uploads) {
        if (key.startsWith(objectPrefix) && only(key.slice(prefix.length))) await this.client.abortMultipartUpload(bucket, key, uploadId);
      }
      if (!page.isTruncated) return;
      marker = { key: page.nextKeyMarker, uploadId: page.nextUploadIdMarker };
    }
  }

  private async ensureBucket(): Promise<void> {
    const { bucket, region } = this.settings;
    try {
      if (await this.client.bucketExists(bucket)) return;
      await this.client.makeBucket(bucket, region);
    } catch (error) {
      // Another process created it between our check and our create.
      if ((error as { code?: unknown }).code === 'BucketAlreadyOwnedByYou') return;
      throw mapS3Error(error, `preparing bucket ${bucket}`);
    }
  }

  private objectName(key: string): string {
    const name = this.settings.prefix + checkKey(key);
    if (Buffer.byteLength(name, 'utf8') > MAX_KEY_BYTES) {
      throw new MemoryServiceError('BLOB.INVALID_KEY', `blob key ${key} with prefix ${this.settings.prefix} is longer than ${MAX_KEY_BYTES} bytes`);
    }
    return name;
  }

  private track<T>(operation: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new MemoryServiceError('BLOB.CLOSED', 'the blob store is closed'));
    const running = operation();
    this.inFlight.add(running);
    const forget = () => this.inFlight.delete(running);
    running.then(forget, forget);
    return running;
  }
}

/** The response body, with a failure mid-download (connection reset, idle timeout) mapped to our errors. */
async function* relay(response: Readable, key: string): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of response) yield chunk as Buffer;
  } catch (error) {
    throw mapS3Error(error, `reading blob ${key}`);
  }
}

/**
 * The http(s) module with every request failing after `ms` without a byte either way: the minio client has no
 * timeout of its own, and a server that stops answering would otherwise hang a put or get for ever.
 */
function withIdleTimeout(base: typeof http | typeof https, ms: number): typeof http {
  const request = (...args: unknown[]) => {
    const req = (base.request as (...a: unknown[]) => http.ClientRequest)(...args);
    req.setTimeout(ms, () => req.destroy(Object.assign(new Error(`no data for ${ms} ms`), { code: 'ETIMEDOUT' })));
    return req;
  };
  return { request } as unknown as typeof http;
}
