import { expect } from 'chai';
import { createLogger, type MemoryServiceError } from '@memory/platform';
import { drawReceipt, hostilePdf, MANUAL_PAGES, pixelBombPng, writePdf } from '@memory/testing';
import { createFilePool, type FilePool } from './pool.js';
import { defaultFileWorkers } from './defaults.js';
import { cpuMsOf, processUsage } from './usage.js';

const logger = createLogger({ test: 'file-pool' }, (process.env['MEMORY_LOG_LEVEL'] ?? 'silent') as 'silent');

async function failureOf(work: Promise<unknown>): Promise<MemoryServiceError> {
  try {
    await work;
  } catch (error) {
    return error as MemoryServiceError;
  }
  throw new Error('expected the file to fail');
}

describe('file pool', function () {
  this.timeout(180_000);
  const pools: FilePool[] = [];
  const pool = (options: { timeLimitMs?: number; memoryLimitMb?: number; workers?: number } = {}) => {
    const created = createFilePool({ workers: options.workers ?? 1, timeLimitMs: options.timeLimitMs ?? 60_000, memoryLimitMb: options.memoryLimitMb ?? 1536, logger });
    pools.push(created);
    return created;
  };
  after(() => Promise.all(pools.map((p) => p.close())));
  let defaults: FilePool | undefined;
  /** One pool with the default limits for the tests that do not pass one, so they pay a worker's start once. */
  const defaultPool = () => (defaults ??= pool());

  it('reads a PDF text layer and an image (features and OCR) in its workers', async () => {
    const files = defaultPool();
    const document = await files.readDocument(await writePdf(MANUAL_PAGES.slice(0, 2)));
    expect(document.pageCount).to.equal(2);
    expect(document.pages.map((page) => page.textSource)).to.deep.equal(['text_layer', 'text_layer']);
    expect(document.pages[1]!.text).to.contain('flue pipe');
    const image = await files.readImage(await drawReceipt(), { now: Date.now() });
    expect(image.features.visualDescriptor).to.be.instanceOf(Float32Array);
    expect(image.features.width).to.be.greaterThan(0);
    expect(image.ocrText).to.match(/RECEIPT/);
  });

  it('keeps the stable code and HTTP status of a file that fails on its own', async () => {
    const files = defaultPool();
    expect((await failureOf(files.readDocument(Buffer.from('not a pdf at all')))).code).to.equal('DOCUMENT.NOT_PDF');
    const unreadable = await failureOf(files.readImage(Buffer.from('neither an image'), { now: 0 }));
    expect(unreadable).to.include({ code: 'IMAGE.UNREADABLE', status: 415 });
  });

  it('fails a PDF that passes the CPU time limit with DOCUMENT.TOO_COMPLEX, replaces the worker and loses nothing queued behind it', async () => {
    const files = pool({ timeLimitMs: 2_000 });
    const started = Date.now();
    const pdf = hostilePdf({ pages: 2, operations: 150_000 });
    const hostile = failureOf(files.readDocument(pdf));
    const behind = files.readDocument(await writePdf(MANUAL_PAGES.slice(0, 1)));
    const error = await hostile;
    expect(error.code).to.equal('DOCUMENT.TOO_COMPLEX');
    expect(error.retriable).to.equal(false);
    expect(error.details).to.deep.equal({ kind: 'time', ms: 2_000 });
    expect(error.message).to.match(/more than 2\.0 s of processing.*text layer/);
    expect((await behind).pages[0]!.text).to.contain('Installation guide');
    expect(Date.now() - started).to.be.below(60_000);
    // The same bytes again (the stage runner isolating a failed batch) fail at once, without a worker.
    const again = Date.now();
    expect((await failureOf(files.readDocument(pdf))).details).to.deep.equal({ kind: 'time', ms: 2_000 });
    expect(Date.now() - again).to.be.below(1_000);
  });

  it('fails an image that passes the memory limit with IMAGE.TOO_COMPLEX (a decompression bomb) and keeps working', async () => {
    const files = pool({ memoryLimitMb: 300 });
    const error = await failureOf(files.imageFeatures(await pixelBombPng(), { now: 0 }));
    expect(error).to.include({ code: 'IMAGE.TOO_COMPLEX', status: 422 });
    expect(error.details).to.deep.equal({ kind: 'memory', mb: 300 });
    // The replacement takes the next file.
    expect((await files.readDocument(await writePdf(MANUAL_PAGES.slice(0, 1)))).pages.length).to.equal(1);
  });

  it('fails what is queued with a retriable FILES.CLOSED when it closes', async () => {
    const files = pool();
    const pending = failureOf(files.readDocument(await writePdf(['one page'])));
    await files.close();
    expect(await pending).to.include({ code: 'FILES.CLOSED', retriable: true });
  });

  it('leaves one core to the service', () => {
    expect([1, 2, 8].map((cores) => defaultFileWorkers(cores))).to.deep.equal([1, 1, 7]);
  });

  it('reads CPU time and resident memory from /proc', () => {
    expect(cpuMsOf('42 (a (b) c) S 1 42 42 0 -1 4194304 128 0 0 0 250 30 0 0 20 0 1 0')).to.equal(2800);
    const own = processUsage(process.pid)!;
    expect(own.rssMb).to.be.greaterThan(10);
    expect(own.cpuMs).to.be.greaterThan(0);
  });
});
