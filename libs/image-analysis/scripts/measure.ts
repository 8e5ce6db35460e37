/**
 * Rough speed figures on this machine (not a test): ms per image for inspectImage, makePreview, analyzeImage
 * and OCR on a 1024x768 picture with text, shapes and colours.
 *   node --conditions=source --import tsx libs/image-analysis/scripts/measure.ts [runs]
 */
import sharp from 'sharp';
import { analyzeImage, createOcr, inspectImage, makePreview } from '../src/index.js';

const runs = Number(process.argv[2] ?? 5);
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="768">
  <rect width="100%" height="100%" fill="#f4f1de"/>
  <rect x="620" y="80" width="330" height="260" fill="#3d5a80"/><circle cx="800" cy="560" r="140" fill="#e07a5f"/>
  <text x="60" y="140" font-family="DejaVu Sans" font-size="56" fill="#111">INVOICE 4417</text>
  <text x="60" y="240" font-family="DejaVu Sans" font-size="34" fill="#111">Meet Caroline at the Riverside cafe</text>
  <text x="60" y="320" font-family="DejaVu Sans" font-size="28" fill="#333">Total due: 1,250.00 EUR by 14 March</text>
  <text x="60" y="640" font-family="DejaVu Sans" font-size="24" fill="#333">Thank you for your business</text>
</svg>`;
const jpeg = await sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();

async function time(label: string, task: () => Promise<unknown>): Promise<unknown> {
  let last: unknown;
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    last = await task();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  console.log(`${label.padEnd(16)} median ${samples[Math.floor(samples.length / 2)]?.toFixed(0)} ms  min ${samples[0]?.toFixed(0)}  max ${samples.at(-1)?.toFixed(0)}  (${runs} runs)`);
  return last;
}

await time('inspectImage', () => inspectImage(jpeg));
await time('makePreview', () => makePreview(jpeg));
await time('analyzeImage', () => analyzeImage(jpeg));
const ocr = await createOcr();
const loadStart = performance.now();
await ocr.ready();
console.log(`OCR model load   ${(performance.now() - loadStart).toFixed(0)} ms`);
const result = await time('ocr.read', () => ocr.read(jpeg));
console.log(JSON.stringify(result));
await ocr.close();
