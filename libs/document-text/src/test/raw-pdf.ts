/**
 * Writes a PDF from object bodies by hand (object n is objects[n - 1]), with a correct cross-reference table,
 * for the fixtures pdf-lib cannot make. `trailer` is added to the trailer dictionary (e.g. /Encrypt, /ID).
 */
export function rawPdf(objects: Array<string | Buffer>, trailer = ''): Uint8Array {
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  let offset = parts[0]?.length ?? 0;
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    const object = Buffer.concat([Buffer.from(`${index + 1} 0 obj\n`), Buffer.from(body), Buffer.from('\nendobj\n')]);
    offsets.push(offset);
    offset += object.length;
    parts.push(object);
  });
  const entries = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  parts.push(Buffer.from(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${entries}`));
  parts.push(Buffer.from(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailer}>>\nstartxref\n${offset}\n%%EOF\n`));
  return new Uint8Array(Buffer.concat(parts));
}

/** A content stream object body. */
export function stream(data: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`<< /Length ${data.length} >>\nstream\n`), data, Buffer.from('\nendstream')]);
}

/** Catalog, page tree and one Letter page using font /F1 (object 5) and content object 4. */
export const ONE_PAGE_SKELETON = [
  '<< /Type /Catalog /Pages 2 0 R >>',
  '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
  '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
] as const;
