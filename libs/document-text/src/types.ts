export interface ExtractedPage {
  /** 1-based, as printed by PDF viewers. */
  pageNumber: number;
  /** Reading-order text with line breaks, de-hyphenated, whitespace normalised; '' when the page has none. */
  text: string;
  /**
   * False for a page that is only pictures (a scan), or whose text has no letter or digit (glyph codes without a
   * Unicode mapping): it needs OCR to be searchable. `text` is still what pdfjs found.
   */
  hasTextLayer: boolean;
}

export interface ExtractedDocument {
  pageCount: number;
  pages: ExtractedPage[];
  title: string | null;
  author: string | null;
  /** True when no page has a text layer, so the whole document needs OCR. */
  scanned: boolean;
}

export interface ExtractOptions {
  /** Documents with more pages are refused with DOCUMENT.TOO_MANY_PAGES. Default DEFAULT_MAX_PAGES (500). */
  maxPages?: number;
}

export interface ChunkOptions {
  /** Upper bound on a chunk's length in characters. Default 1200. */
  maxChars?: number;
  /** How much of the previous chunk's end a chunk repeats, at most. Default 150. */
  overlapChars?: number;
}

export interface RenderOptions {
  /** Pixels per PDF point (1 = 72 dpi). Default 2 (144 dpi), enough for OCR of body text. */
  scale?: number;
  /** The longer side of the image is capped at this many pixels, lowering the scale if needed. Default 2048. */
  maxSide?: number;
}
