import busboy from 'busboy';
import { Transform, type Readable } from 'node:stream';
import type { Request } from 'express';
import { looksLikePdf, PDF_HEADER_WINDOW } from '@memory/document-text';
import { RequestError } from '@memory/platform';

export interface IncomingPdf {
  fileName: string;
  /** The file's bytes as they arrive; fails with a 415 RequestError when they do not start like a PDF. */
  stream: Readable;
}

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
      parser = busboy({ headers: req.headers, limits: { files: 1, fileSize: maxBytes + 1, fields: 20, parts: 21 } });
    } catch (error) {
      reject(new RequestError(400, 'DOCUMENT.INVALID_MULTIPART', `the multipart body cannot be read: ${(error as Error).message}`));
      return;
    }
    let found = false;
    parser.on('file', (name, file, info) => {
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
      const checked = requirePdfMagic();
      // The blob store reads this stream and hears its failure through its own pipeline; this listener only keeps
      // a failure that comes before the store starts reading from being an unhandled 'error' event.
      checked.on('error', () => {});
      resolve({ fileName: info.filename ?? 'document.pdf', stream: file.pipe(checked) });
    });
    parser.on('error', (error: Error) => reject(new RequestError(400, 'DOCUMENT.INVALID_MULTIPART', `the multipart body cannot be read: ${error.message}`)));
    parser.on('close', () => {
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
