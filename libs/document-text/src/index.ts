export { looksLikePdf, PDF_HEADER_WINDOW } from './looks-like-pdf.js';
export { extractDocument, DEFAULT_MAX_PAGES } from './extract-document.js';
export { chunkPage, DEFAULT_CHUNK_CHARS, DEFAULT_OVERLAP_CHARS } from './chunk-page.js';
export { renderPage, preloadDocumentReading, DEFAULT_RENDER_SCALE, DEFAULT_RENDER_MAX_SIDE } from './render-page.js';
export { DocumentErrorCode, tooComplex as documentTooComplex } from './errors.js';
export type { ExtractedDocument, ExtractedPage, ExtractOptions, ChunkOptions, RenderOptions } from './types.js';
