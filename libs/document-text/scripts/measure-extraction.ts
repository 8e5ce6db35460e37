/**
 * Quick throughput figures for extraction, chunking and rendering; not a test, numbers vary with the machine.
 *   node --conditions=source --import tsx libs/document-text/scripts/measure-extraction.ts
 */
import { chunkPage, extractDocument, renderPage } from '../src/index.js';
import { imageOnlyPdf, sentences, textPdf } from '../src/test/pdf-fixtures.js';

const PAGES = 50;
const RUNS = 3;

const pdf = await textPdf(
  Array.from({ length: PAGES }, (_, page) => ({ paragraphs: [0, 1, 2].map((p) => sentences(9, `${page}.${p}.`).join(' ')) })),
);
const scans = await imageOnlyPdf(PAGES);

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await work();
  return { value, ms: performance.now() - start };
}

const cold = await timed(() => extractDocument(pdf));
const chars = cold.value.pages.reduce((sum, page) => sum + page.text.length, 0);
console.log(`${PAGES}-page text PDF: ${(pdf.length / 1024).toFixed(0)} KiB, ${chars} characters extracted`);
console.log(`first run (loads pdfjs): ${cold.ms.toFixed(0)} ms`);

const warm: number[] = [];
for (let i = 0; i < RUNS; i++) warm.push((await timed(() => extractDocument(pdf))).ms);
const best = Math.min(...warm);
const median = [...warm].sort((a, b) => a - b)[Math.floor(RUNS / 2)] ?? best;
console.log(`warm runs: ${warm.map((ms) => ms.toFixed(0)).join(', ')} ms -> ${(PAGES / (median / 1000)).toFixed(0)} pages/s (median), ${(PAGES / (best / 1000)).toFixed(0)} pages/s (best)`);

const parallel = await timed(() => Promise.all([extractDocument(pdf), extractDocument(pdf)]));
console.log(`two documents at once: ${parallel.ms.toFixed(0)} ms (one thread: pdfjs parses on the caller's thread)`);

const scanned = await timed(() => extractDocument(scans));
console.log(`${PAGES}-page picture-only PDF: ${scanned.ms.toFixed(0)} ms, scanned=${scanned.value.scanned}`);

const chunking = await timed(async () => cold.value.pages.flatMap((page) => chunkPage(page.text)));
console.log(`chunkPage over all pages: ${chunking.value.length} chunks in ${chunking.ms.toFixed(1)} ms`);

const render = await timed(() => renderPage(pdf, 1));
const renderScan = await timed(() => renderPage(scans, 1));
console.log(`renderPage at scale 2: text page ${render.ms.toFixed(0)} ms (${(render.value.length / 1024).toFixed(0)} KiB PNG), picture page ${renderScan.ms.toFixed(0)} ms`);
console.log(`rss: ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`);
