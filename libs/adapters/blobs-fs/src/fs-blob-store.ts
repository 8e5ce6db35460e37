import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { MemoryServiceError, syncDirectory } from '@memory/platform';
import type { BlobInfo, BlobStore } from '@memory/ports';
import { encodeTrailer, readTrailer, type BlobMeta } from './blob-file.js';
import { isMissing, mapFsError, sourceFailed } from './fs-errors.js';
import { checkContentType, checkKey, checkMaxBytes, checkPrefix, tooLarge } from '@memory/ports';
import { Layout } from './layout.js';

// A temporary file this old belongs to a writer that crashed; younger ones may be another process's upload.
const STALE_TEMP_MS = 60 * 60 * 1000;

/**
 * Blobs as files under one root directory (see Layout and blob-file.ts). Every write goes to a temporary file
 * that is fsynced and then renamed over the blob, so readers see the old blob or the new one, never a mix, and a
 * crash leaves at most a stray temporary file. Reads hold the file open, so a blob overwritten or deleted while
 * it streams out still arrives whole.
 */
export class FsBlobStore implements BlobStore {
  private closed = false;

  private constructor(private readonly layout: Layout) {}

  static async open(dir: string): Promise<FsBlobStore> {
    const layout = new Layout(dir);
    try {
      await mkdir(layout.blobsDir, { recursive: true });
      await mkdir(layout.tmpDir, { recursive: true });
      await sweepStaleTemps(layout.tmpDir);
    } catch (error) {
      throw mapFsError(error, `opening blob store ${dir}`);
    }
    return new FsBlobStore(layout);
  }

  async put(key: string, body: Readable | Buffer, contentType: string, options: { maxBytes?: number } = {}): Promise<BlobInfo> {
    this.checkOpen();
    checkKey(key);
    const type = checkContentType(contentType);
    const maxBytes = checkMaxBytes(options.maxBytes);
    if (Buffer.isBuffer(body) && body.length > maxBytes) throw tooLarge(key, maxBytes);

    const { dir, file } = this.layout.locate(key);
    const temp = join(this.layout.tmpDir, `${randomBytes(12).toString('hex')}.tmp`);
    let handle: FileHandle | undefined;
    try {
      handle = await open(temp, 'wx');
      const size = Buffer.isBuffer(body) ? await writeFully(handle, body, key).then(() => body.length) : await copyStream(body, handle, key, maxBytes);
      const meta: BlobMeta = { key, size, contentType: type };
      await writeFully(handle, encodeTrailer(meta), key);
      await handle.sync();
      await handle.close();
      handle = undefined;
      await mkdir(dir, { recursive: true });
      await rename(temp, file);
      await syncDirectory(dir);
      return { key, size, contentType: type };
    } catch (error) {
      await handle?.close().catch(() => undefined);
      await rm(temp, { force: true }).catch(() => undefined);
      throw mapFsError(error, `writing blob ${key}`);
    }
  }

  async get(key: string): Promise<Readable> {
    this.checkOpen();
    const { handle, meta } = await this.openBlob(checkKey(key));
    if (meta.size === 0) {
      await handle.close();
      return Readable.from([]);
    }
    return handle.createReadStream({ start: 0, end: meta.size - 1 });
  }

  async head(key: string): Promise<BlobInfo | null> {
    this.checkOpen();
    try {
      const { handle, meta } = await this.openBlob(checkKey(key));
      await handle.close();
      return { key: meta.key, size: meta.size, contentType: meta.contentType };
    } catch (error) {
      if ((error as { code?: unknown }).code === 'BLOB.NOT_FOUND') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    this.checkOpen();
    const { dir, file } = this.layout.locate(checkKey(key));
    try {
      await unlink(file);
    } catch (error) {
      if (isMissing(error)) return;
      throw mapFsError(error, `deleting blob ${key}`);
    }
    // Forgetting must survive a crash too.
    await syncDirectory(dir).catch((error: unknown) => Promise.reject(mapFsError(error, `deleting blob ${key}`)));
  }

  /**
   * File names are hashes of whole keys, so the blobs under a prefix are found by reading the trailers of the
   * tenant's files: the cost grows with the tenant's blob count, not with the prefix's.
   */
  async deletePrefix(prefix: string, only: (key: string) => boolean = () => true): Promise<number> {
    this.checkOpen();
    checkPrefix(prefix);
    const tenantDir = this.layout.groupDir(prefix);
    let removed = 0;
    for (const shard of await readdir(tenantDir).catch((error: unknown) => (isMissing(error) ? [] : Promise.reject(mapFsError(error, `listing blobs under ${prefix}`))))) {
      const shardDir = join(tenantDir, shard);
      for (const name of await readdir(shardDir).catch(() => [] as string[])) {
        const path = join(shardDir, name);
        const key = await keyOfFile(path);
        if (key === null || !key.startsWith(prefix) || !only(key)) continue;
        await this.delete(key);
        removed++;
      }
    }
    return removed;
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private checkOpen(): void {
    if (this.closed) throw new MemoryServiceError('BLOB.CLOSED', 'the blob store is closed');
  }

  /** Opens a blob's file and reads its trailer; the caller closes the handle (or a stream does). */
  private async openBlob(key: string): Promise<{ handle: FileHandle; meta: BlobMeta }> {
    const { file } = this.layout.locate(key);
    let handle: FileHandle;
    try {
      handle = await open(file, 'r');
    } catch (error) {
      if (isMissing(error)) throw new MemoryServiceError('BLOB.NOT_FOUND', `no blob ${key}`, { details: { key } });
      throw mapFsError(error, `reading blob ${key}`);
    }
    try {
      const meta = await readTrailer(handle, file);
      if (meta.key !== key) throw new MemoryServiceError('BLOB.CORRUPT', `blob file ${file} holds ${meta.key}, not ${key}`);
      return { handle, meta };
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw mapFsError(error, `reading blob ${key}`);
    }
  }
}

async function writeFully(handle: FileHandle, buffer: Buffer, key: string): Promise<void> {
  let offset = 0;
  try {
    while (offset < buffer.length) {
      const { bytesWritten } = await handle.write(buffer, offset, buffer.length - offset);
      offset += bytesWritten;
    }
  } catch (error) {
    throw mapFsError(error, `writing blob ${key}`);
  }
}

/**
 * Copies `body` into the file chunk by chunk, counting as it goes: the upload stops (and its source is destroyed,
 * which ends the for-await) as soon as it passes maxBytes, rather than after the whole body was stored.
 */
async function copyStream(body: Readable, handle: FileHandle, key: string, maxBytes: number): Promise<number> {
  let size = 0;
  try {
    for await (const chunk of body) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array | string);
      size += buffer.length;
      if (size > maxBytes) throw tooLarge(key, maxBytes);
      await writeFully(handle, buffer, key);
    }
  } catch (error) {
    // Our own failures are MemoryServiceErrors already; anything else came from the caller's stream.
    throw sourceFailed(error, key);
  }
  return size;
}

/** The key a blob file holds, or null for a file that vanished or is not a blob. */
async function keyOfFile(path: string): Promise<string | null> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, 'r');
    return (await readTrailer(handle, path)).key;
  } catch {
    return null;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

async function sweepStaleTemps(tmpDir: string): Promise<void> {
  const now = Date.now();
  for (const name of await readdir(tmpDir)) {
    const path = join(tmpDir, name);
    const info = await stat(path).catch(() => null);
    if (info && now - info.mtimeMs > STALE_TEMP_MS) await rm(path, { force: true });
  }
}
