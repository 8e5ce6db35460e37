import busboy from 'busboy';
import { Transform, type Readable } from 'node:stream';
import type { Request } from 'express';
import { looksLikePdf, PDF_HEADER_WINDOW } from '@memory/document-text';
import { RequestError } from '@memory/platform';
import type { MemoryMetadata } from '@memory/ports';
import { REQUEST_LIMITS } from './limits.js';
import { validateMetadataField } from './metadata.js';

export interface IncomingPdf {
  fileName: string;
  /** The file's bytes as they arrive; fails with a 415 RequestError when they do not start like a PDF. */
  stream: Readable;
  /**
   * The validated `metadata` part, before or after the file: settled once the whole body has been read, so await it
   * only after the file's stream has been consumed.
   */
  metadata: Promise<MemoryMetadata | null>;
}

/** Room for the metadata part beyond its JSON limit (whitespace), so a too-large one is measured, not cut. */
const FIELD_BYTES = 4 * REQUEST_LIMITS.metadata.maxJsonBytes;

/**
 * The one `file` part of a multipart upload, as a stream: nothing is held in memory beyond the first KiB (kept
 * until it shows the PDF magic bytes). busboy stops reading one byte past `maxBytes`, so the blob store's own
 * limit sees the file is too large and keeps nothing.
 */
export function receivePdf(req: Request, maxBytes: number): Promise<IncomingPdf> {
  if (!req.is('multipart/form-data')) {
    throw new RequestError(415, 'REQUEST.UNSUPPORTED_MEDIA_TYPE', 'send multipart/form-data with the PDF in a part named "file"');
  }
  return new Promise<IncomingPdf>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { files: 1, fileSize: maxBytes + 1, fields: 20, parts: 21, fieldSize: FIELD_BYTES } });
    } catch (error) {
      reject(new RequestError(400, 'DOCUMENT.INVALID_MULTIPART', `the multipart body cannot be read: ${(error as Error).message}`));
      return;
    }
    let found = false;
    let metadataText: string | null = null;
    let metadataRefusal: RequestError | null = null;
    let bodyRead: (refusal: unknown) => void = () => {};
    const metadata = new Promise<MemoryMetadata | null>((settle, refuse) => {
      bodyRead = (refusal) => {
        if (refusal) return refuse(refusal);
        try {
          settle(validateMetadataField(metadataText));
        } catch (error) {
          refuse(error);
        }
      };
    });
    // Awaited only once the file is stored; a refusal before that is reported by the promise the route awaits.
    metadata.catch(() => {});
    parser.on('field', (name, value, info) => {
      if (name !== 'metadata') return;
      if (metadataText !== null) metadataRefusal ??= new RequestError(400, 'METADATA.INVALID', 'send one metadata part, not several');
      if (info.valueTruncated) metadataRefusal ??= new RequestError(400, 'METADATA.TOO_LARGE', `the metadata part is larger than ${FIELD_BYTES} bytes; the limit is ${REQUEST_LIMITS.metadata.maxJsonBytes} bytes of JSON`);
      metadataText = value;
    });
    parser.on('file', (name, file, info) => {
      // busboy fails a part's stream when the body ends inside it (a cut upload, a missing closing boundary): with no
      // listener that 'error' would take the process down. The parser's own 'error' reports it to the route.
      file.on('error', () => {});
      if (name !== 'file' || found) {
        file.resume();
        return;
      }
      found = true;
      if (info.mimeType !== 'application/pdf') {
        file.resume();
        reject(new RequestError(415, 'DOCUMENT.UNSUPPORTED_TYPE', `the file part must have Content-Type application/pdf, not ${info.mimeType}`));
        return;
      }
      // Metadata sent before the file is refused before a byte of the file is stored.
      try {
        if (metadataRefusal) throw metadataRefusal;
        validateMetadataField(metadataText);
      } catch (error) {
        file.resume();
        reject(error);
        return;
      }
      const checked = requirePdfMagic();
      // The blob store reads this stream and hears its failure through its own pipeline; this listener only keeps
      // a failure that comes before the store starts reading from being an unhandled 'error' event.
      checked.on('error', () => {});
      file.once('error', (error: Error) => checked.destroy(new RequestError(400, 'DOCUMENT.INVALID_MULTIPART', `the multipart body cannot be read: ${error.message}`)));
      resolve({ fileName: info.filename ?? 'document.pdf', stream: file.pipe(checked), metadata });
    });
    parser.on('error', (error: Error) => {
      const refusal = new RequestError(400, 'DOCUMENT.INVALID_MULTIPART', `the multipart body cannot be read: ${error.message}`);
      bodyRead(refusal);
      reject(refusal);
    });
    parser.on('close', () => {
      bodyRead(metadataRefusal);
      if (!found) reject(new RequestError(400, 'DOCUMENT.MISSING_FILE', 'send the PDF in a multipart part named "file"'));
    });
    req.pipe(parser);
  });
}

/** Passes bytes through once the first KiB (or the whole file, if shorter) shows %PDF-; fails the stream otherwise. */
function requirePdfMagic(): Transform {
  let head: Buffer | null = Buffer.alloc(0);
  const check = (transform: Transform): boolean => {
    if (looksLikePdf(head!)) {
      transform.push(head);
      head = null;
      return true;
    }
    transform.destroy(new RequestError(415, 'DOCUMENT.NOT_PDF', 'the file does not start like a PDF (no %PDF- header): upload a PDF document'));
    return false;
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (head === null) return done(null, chunk);
      head = Buffer.concat([head, chunk]);
      if (head.length >= PDF_HEADER_WINDOW) check(this);
      done();
    },
    flush(done) {
      if (head === null || check(this)) done();
    },
  });
}

/** A file name safe in a storage path: letters, digits, dot, dash and underscore; the .pdf ending kept. */
export function sanitiseFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base.normalize('NFKD').replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '').slice(0, 120);
  const withName = cleaned === '' || cleaned === '.pdf' ? 'document.pdf' : cleaned;
  return /\.pdf$/i.test(withName) ? withName : `${withName}.pdf`;
}
