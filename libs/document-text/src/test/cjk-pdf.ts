import { ONE_PAGE_SKELETON, rawPdf, stream } from './raw-pdf.js';

/**
 * Japanese text in a non-embedded CID font with a predefined CMap (UniJIS-UCS2-H), as older Japanese office
 * exports write it. pdfjs can only turn its codes into text with the CMap files of pdfjs-dist, so this proves
 * they are found on disk.
 */
export function japanesePdf(text: string): Uint8Array {
  const ucs2 = [...text].map((ch) => (ch.codePointAt(0) ?? 0).toString(16).padStart(4, '0')).join('');
  return rawPdf([
    ...ONE_PAGE_SKELETON,
    stream(Buffer.from(`BT /F1 24 Tf 72 700 Td <${ucs2}> Tj ET`)),
    '<< /Type /Font /Subtype /Type0 /BaseFont /KozMinPr6N-Regular /Encoding /UniJIS-UCS2-H /DescendantFonts [6 0 R] >>',
    '<< /Type /Font /Subtype /CIDFontType0 /BaseFont /KozMinPr6N-Regular /CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 6 >> /FontDescriptor 7 0 R >>',
    '<< /Type /FontDescriptor /FontName /KozMinPr6N-Regular /Flags 6 /FontBBox [0 -200 1000 900] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 700 /StemV 80 >>',
  ]);
}
