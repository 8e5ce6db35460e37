import { createHash, randomBytes } from 'node:crypto';
import { ONE_PAGE_SKELETON, rawPdf, stream } from './raw-pdf.js';

/**
 * pdf-lib cannot encrypt, so this writes a one-page PDF protected by the standard security handler at its oldest
 * level (/V 1 /R 2: RC4 with a 40-bit key, PDF 1.1), following the algorithms of ISO 32000-1 §7.6.3:
 *
 * - both passwords are padded to 32 bytes with a fixed string (PAD);
 * - /O is the padded user password, RC4-encrypted with a key from the padded owner password (algorithm 3);
 * - the file key is the first 5 bytes of MD5(padded user password, /O, /P as 4 little-endian bytes, first /ID);
 * - /U is PAD RC4-encrypted with the file key (algorithm 4), which lets a reader check a password it is given;
 * - every string and stream is RC4-encrypted with MD5(file key, object number, generation) cut to 10 bytes.
 *
 * With a non-empty user password a reader given no password finds /U does not match and asks for one (pdfjs:
 * PasswordException); with an empty one it opens the file without asking, as for "permissions only" PDFs.
 * Nothing in the file is a string (names and numbers are not encrypted), so only the content stream needs RC4.
 */
export function encryptedPdf(options: { userPassword: string; ownerPassword?: string; text: string }): Uint8Array {
  const permissions = -44; // print, modify, copy, annotate all denied; the value only feeds the key here
  const fileId = randomBytes(16);
  const owner = rc4(md5(padded(options.ownerPassword ?? 'owner')).subarray(0, 5), padded(options.userPassword));
  const p = Buffer.alloc(4);
  p.writeInt32LE(permissions);
  const fileKey = md5(Buffer.concat([padded(options.userPassword), owner, p, fileId])).subarray(0, 5);
  const user = rc4(fileKey, PAD);

  const content = Buffer.from(`BT /F1 24 Tf 72 700 Td (${options.text}) Tj ET`, 'latin1');
  const id = `<${fileId.toString('hex')}>`;
  return rawPdf(
    [
      ...ONE_PAGE_SKELETON,
      stream(rc4(objectKey(fileKey, 4, 0), content)),
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
      `<< /Filter /Standard /V 1 /R 2 /Length 40 /O <${owner.toString('hex')}> /U <${user.toString('hex')}> /P ${permissions} >>`,
    ],
    `/Encrypt 6 0 R /ID [${id} ${id}] `,
  );
}

const PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');

function padded(password: string): Buffer {
  return Buffer.concat([Buffer.from(password, 'latin1'), PAD]).subarray(0, 32);
}

function md5(data: Buffer): Buffer {
  return createHash('md5').update(data).digest();
}

function objectKey(fileKey: Buffer, objectNumber: number, generation: number): Buffer {
  const suffix = Buffer.from([objectNumber & 0xff, (objectNumber >> 8) & 0xff, (objectNumber >> 16) & 0xff, generation & 0xff, (generation >> 8) & 0xff]);
  return md5(Buffer.concat([fileKey, suffix])).subarray(0, Math.min(fileKey.length + 5, 16));
}

/** RC4 by hand: OpenSSL 3 (and so Node) only offers it through the legacy provider. */
function rc4(key: Buffer, data: Buffer): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  const at = (i: number): number => s[i] ?? 0;
  const swap = (i: number, j: number): void => {
    const t = at(i);
    s[i] = at(j);
    s[j] = t;
  };
  let j = 0;
  for (let i = 0; i < 256; i++) {
    j = (j + at(i) + (key[i % key.length] ?? 0)) & 0xff;
    swap(i, j);
  }
  const out = Buffer.alloc(data.length);
  let i = 0;
  j = 0;
  for (let k = 0; k < data.length; k++) {
    i = (i + 1) & 0xff;
    j = (j + at(i)) & 0xff;
    swap(i, j);
    out[k] = (data[k] ?? 0) ^ at((at(i) + at(j)) & 0xff);
  }
  return out;
}
