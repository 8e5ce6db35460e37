import { expect } from 'chai';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { ConfigError } from '@memory/platform';
import { createOcr, type Ocr } from './ocr.js';
import { rejection, textImage } from '../spec-images.js';

/** Words of `expected` found as whole words in `text`: the accuracy figure the report quotes. */
function wordRecall(expected: string, text: string): number {
  const got = new Set(text.split(/\s+/));
  const words = expected.split(/\s+/);
  return words.filter((word) => got.has(word)).length / words.length;
}

describe('createOcr (PaddleOCR v4 through @gutenye/ocr-node, offline)', function () {
  // One model load for the file; reads take about a second each on two busy cores.
  this.timeout(60_000);
  let ocr: Ocr;
  const networkCalls: string[] = [];
  const restore: Array<() => void> = [];

  before(async () => {
    // Observe (not replace) every way JavaScript could reach the network while the models load and run.
    const originalFetch = globalThis.fetch;
    globalThis.fetch = ((...args: Parameters<typeof fetch>) => {
      networkCalls.push(`fetch ${String(args[0])}`);
      return originalFetch(...args);
    }) as typeof fetch;
    restore.push(() => (globalThis.fetch = originalFetch));
    for (const [name, target] of [['http.request', http], ['https.request', https], ['http.get', http], ['https.get', https], ['net.connect', net]] as const) {
      const key = name.split('.')[1] as 'request' | 'get' | 'connect';
      const original = (target as unknown as Record<string, (...args: unknown[]) => unknown>)[key] as (...args: unknown[]) => unknown;
      (target as unknown as Record<string, unknown>)[key] = (...args: unknown[]) => {
        networkCalls.push(name);
        return original.apply(target, args);
      };
      restore.push(() => ((target as unknown as Record<string, unknown>)[key] = original));
    }
    ocr = await createOcr();
    await ocr.ready();
  });

  after(async () => {
    await ocr?.close();
    for (const undo of restore) undo();
  });

  it('reads English text rendered into a PNG, line by line, in reading order', async () => {
    const result = await ocr.read(await textImage(['INVOICE 4417', 'Meet Caroline at the Riverside cafe']));
    expect(result.text).to.equal('INVOICE 4417\nMeet Caroline at the Riverside cafe');
    expect(result.lines.map((line) => line.text)).to.deep.equal(['INVOICE 4417', 'Meet Caroline at the Riverside cafe']);
    for (const line of result.lines) expect(line.confidence).to.be.within(0.75, 1);
  });

  it('reads the same text from a JPEG photo-style page with shapes and colour', async () => {
    const png = await textImage(['INVOICE 4417', 'Meet Caroline at the Riverside cafe'], 1024, 768);
    const page = await sharp(png)
      .composite([{ input: Buffer.from('<svg width="300" height="300"><circle cx="150" cy="150" r="140" fill="#e07a5f"/></svg>'), left: 680, top: 420 }])
      .jpeg({ quality: 75 })
      .toBuffer();
    const { text } = await ocr.read(page);
    expect(wordRecall('INVOICE 4417 Meet Caroline at the Riverside cafe', text)).to.be.at.least(0.85);
    expect(text.replace(/\s+/g, '')).to.equal('INVOICE4417MeetCarolineattheRiversidecafe');
  });

  it('serves concurrent reads, each with its own answer', async () => {
    const [a, b] = await Promise.all([ocr.read(await textImage(['Gate 14 closes at 09:45'])), ocr.read(await textImage(['Harbour Lights Festival']))]);
    expect(a.text).to.equal('Gate 14 closes at 09:45');
    expect(b.text).to.equal('Harbour Lights Festival');
  });

  it('returns no text for a picture without any', async () => {
    const blank = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#7fb069' } }).png().toBuffer();
    expect(await ocr.read(blank)).to.deep.equal({ text: '', lines: [] });
  });

  it('made no network call while loading the models and reading', () => {
    expect(networkCalls).to.deep.equal([]);
  });

  it('refuses images the way inspectImage does, without touching the engine', async () => {
    expect(await rejection(ocr.read(Buffer.from('<svg/>')))).to.include({ code: 'IMAGE.UNSUPPORTED_FORMAT' });
    expect(await rejection(ocr.read(Buffer.from('not an image')))).to.include({ code: 'IMAGE.UNREADABLE' });
  });

  it('refuses reads after close()', async () => {
    const other = await createOcr();
    await other.close();
    expect(await rejection(other.read(await textImage(['x'])))).to.include({ code: 'IMAGE.OCR_CLOSED' });
  });

  it('reports missing model files as IMAGE.OCR_UNAVAILABLE, naming them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ocr-models-'));
    try {
      writeFileSync(join(dir, 'ppocr_keys_v1.txt'), 'a\n');
      const error = await rejection(createOcr({ modelDir: dir }));
      expect(error).to.include({ code: 'IMAGE.OCR_UNAVAILABLE' });
      expect(error.message).to.contain('ch_PP-OCRv4_det_infer.onnx').and.contain('ch_PP-OCRv4_rec_infer.onnx').and.not.contain('ppocr_keys');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports a model file the engine cannot load as IMAGE.OCR_UNAVAILABLE on first use', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ocr-models-'));
    try {
      for (const name of ['ch_PP-OCRv4_det_infer.onnx', 'ch_PP-OCRv4_rec_infer.onnx', 'ppocr_keys_v1.txt']) writeFileSync(join(dir, name), 'not a model');
      const broken = await createOcr({ modelDir: dir });
      expect(await rejection(broken.ready())).to.include({ code: 'IMAGE.OCR_UNAVAILABLE' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('checks its options before loading anything', async () => {
    const error = await rejection(createOcr({ minConfidence: 2, maxSide: 10, threads: 0 }));
    expect(error).to.be.instanceOf(ConfigError);
    expect(error.message).to.contain('minConfidence').and.contain('maxSide').and.contain('threads');
  });
});
