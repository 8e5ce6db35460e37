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
  close(): Promise<void>;
}
