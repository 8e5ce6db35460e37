const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/**
 * Whether extracted text is a usable text layer. Text made only of symbols or private-use code points is what
 * pdfjs returns for fonts without a Unicode mapping (common in scans with a broken OCR layer and in some subset
 * fonts); such a page is better OCR'd, like a page with no text at all.
 */
export function isReadableText(text: string): boolean {
  return LETTER_OR_DIGIT.test(text);
}
