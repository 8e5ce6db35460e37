import { openAsBlob } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { base64Encode, type BlobParts } from './binary.js';

/**
 * Node-only helpers (@memory/sdk/node): files and streams to what the client methods take. Kept out of the main
 * entry so a browser bundle never meets a node: import.
 */

/** An image file as addImageMemory's imageData (or a search's queryImage): base64 of its bytes. */
export async function imageDataFromFile(path: string): Promise<string> {
  return base64Encode(await readFile(path));
}

/** A PDF file as uploadDocument's file: a Blob read from disk as it is sent. */
export function pdfFromFile(path: string): Promise<Blob> {
  return openAsBlob(path, { type: 'application/pdf' });
}

/**
 * A PDF from a Node stream (an upload being received, an S3 object...) as uploadDocument's file. The stream is read
 * whole first, so the upload can be sent again on a retry; the service caps a PDF's size anyway.
 */
export async function pdfFromStream(stream: Readable | AsyncIterable<Uint8Array | string>): Promise<Blob> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream as AsyncIterable<Uint8Array | string>) chunks.push(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk);
  return new Blob(chunks as BlobParts, { type: 'application/pdf' });
}

export * from './index.js';
