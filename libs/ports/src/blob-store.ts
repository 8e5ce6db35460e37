import type { Readable } from 'node:stream';

export interface BlobInfo {
  key: string;
  size: number;
  contentType: string;
}

/** Images, PDFs and previews; events carry keys (claim checks), never the bytes. */
export interface BlobStore {
  put(key: string, body: Readable | Buffer, contentType: string, options?: { maxBytes?: number }): Promise<BlobInfo>;
  get(key: string): Promise<Readable>;
  head(key: string): Promise<BlobInfo | null>;
  delete(key: string): Promise<void>;
  /**
   * Deletes every blob whose key starts with `prefix` (whole key segments, ending in "/") and that `only` accepts,
   * when given; returns how many.
   */
  deletePrefix(prefix: string, only?: (key: string) => boolean): Promise<number>;
  close(): Promise<void>;
}
