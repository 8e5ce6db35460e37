import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { copyFileSync, createReadStream, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import {
  AuthenticationError, BadRequestError, JobFailedError, JobTimeoutError, MemoryClient, MemoryConnectionError, MemoryTimeoutError,
  NotFoundError, ServiceUnavailableError, UnprocessableEntityError, verifyWebhook, WebhookVerificationError, type MemoryError,
} from '@memory/sdk';
import { imageDataFromFile, pdfFromFile, pdfFromStream } from '@memory/sdk/node';
import type { ServiceUnderTest } from './memory-api-scenarios.js';
import { openApiConformance } from './openapi-conformance.js';
import { secretWord } from './scenario-words.js';
import { TEST_KEYS as KEYS } from './service-process.js';
import { writePdf } from './test-documents.js';
import { drawReceipt } from './test-images.js';
import { waitFor } from './wait-for.js';
import { Receiver } from './webhook-receiver.js';

export interface SdkScenarioOptions {
  /** The repository: when given, the SDK is built, packed with npm pack and installed into a project without TypeScript. */
  packFrom?: string;
}

/** Rejects with a MemoryError of `type`, `status` and `code`; returns it. */
async function rejection<T extends MemoryError>(call: Promise<unknown>, type: abstract new (...args: never[]) => T, status: number | null, code: string | RegExp): Promise<T> {
  const error = await call.then(() => null, (caught: unknown) => caught);
  expect(error, `expected a ${type.name}`).to.be.instanceOf(type);
  const typed = error as T;
  expect(typed.status, typed.message).to.equal(status);
  if (typeof code === 'string') expect(typed.code, typed.message).to.equal(code);
  else expect(typed.code, typed.message).to.match(code);
  return typed;
}

type Fault = 'pass' | 'lose-with-503' | 'lose-with-502' | 'lose-connection' | 'hang';

/**
 * A fault injector in front of the service: each request is forwarded as it is, and the answer is handed back, or
 * replaced by a 503 with Retry-After or a proxy's own 502 page, or the connection dropped, as the next planned fault
 * says (then 'pass').
 */
class FaultyProxy {
  readonly seen: Array<{ method: string; path: string; idempotencyKey: string | undefined; forwardedStatus?: number; forwardedBody?: unknown }> = [];
  readonly plan: Fault[] = [];
  private server?: Server;
  constructor(private readonly target: () => string) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const fault = this.plan.shift() ?? 'pass';
    const entry: FaultyProxy['seen'][number] = { method: req.method!, path: req.url!, idempotencyKey: req.headers['idempotency-key'] as string | undefined };
    this.seen.push(entry);
    if (fault === 'hang') return;
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name)) as Array<[string, string]>);
    const upstream = await fetch(this.target() + req.url, { method: req.method!, headers, ...(chunks.length ? { body: Buffer.concat(chunks) } : {}) });
    const body = Buffer.from(await upstream.arrayBuffer());
    entry.forwardedStatus = upstream.status;
    entry.forwardedBody = upstream.headers.get('content-type')?.includes('json') ? JSON.parse(body.toString('utf8')) : null;
    if (fault === 'lose-connection') {
      req.socket.destroy();
      return;
    }
    if (fault === 'lose-with-503') {
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
      res.end(JSON.stringify({ error: { code: 'SERVICE.UNAVAILABLE', message: 'injected by the test proxy' } }));
      return;
    }
    if (fault === 'lose-with-502') {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
      return;
    }
    const passed: Record<string, string> = {};
    upstream.headers.forEach((value, name) => { if (!['content-length', 'transfer-encoding', 'connection', 'content-encoding'].includes(name)) passed[name] = value; });
    res.writeHead(upstream.status, passed);
    res.end(body);
  }

  stop(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}


/**
 * The TypeScript SDK against the running service: every route through its method, typed errors, waitForJob on the
 * long poll, the image and PDF helpers, retries behind a fault-injecting proxy that reuse one Idempotency-Key, and
 * webhook verification of real deliveries. The service must be started with WEBHOOK_TEST_ENV (loopback targets).
 */
export function describeSdkScenarios(title: string, service: ServiceUnderTest, options: SdkScenarioOptions = {}): void {
  describe(title, function () {
    this.timeout(180_000);
    const client = (endUserId: string, extra: Partial<ConstructorParameters<typeof MemoryClient>[0]> = {}) =>
      new MemoryClient({ baseUrl: service.url, apiKey: KEYS.acme, endUserId, ...extra });
    const stops: Array<() => Promise<void>> = [];
    const workDir = mkdtempSync(join(tmpdir(), 'memory-sdk-'));

    before(() => service.start());
    after(async () => {
      await Promise.all(stops.map((stop) => stop()));
      rmSync(workDir, { recursive: true, force: true });
      await service.stop();
    });

    it('has a method for every operation of the served OpenAPI document, and the reference routes answer', async () => {
      const sdk = client('sdkana');
      const document = await sdk.getOpenApiDocument() as { paths: Record<string, Record<string, { operationId: string }>> };
      const operationIds = Object.values(document.paths).flatMap((methods) => Object.values(methods).map((operation) => operation.operationId));
      expect(operationIds.length).to.be.above(20);
      for (const operationId of operationIds) expect((sdk as unknown as Record<string, unknown>)[operationId], operationId).to.be.a('function');
      expect(await sdk.getLiveness()).to.deep.equal({ status: 'ok' });
      expect((await sdk.getReadiness()).status).to.equal('ready');
      expect(await sdk.getReferencePage()).to.match(/<html/i);
      expect(await sdk.getMetrics()).to.match(/^# HELP memory_/m);
    });

    it('a text memory\'s whole life: add, wait, read, list, search, correct, history, forget', async () => {
      const ana = client('sdkana');
      const word = secretWord('marmalade');
      const accepted = await ana.addMemory({ source: { type: 'text', content: `Ana keeps the ${word} jar on the top shelf` }, metadata: { room: 'pantry' } });
      expect(accepted.status).to.equal('Accepted');
      const job = await ana.waitForJob(accepted.jobId, { timeoutMs: 60_000 });
      expect(job).to.deep.include({ status: 'Completed', endUserId: 'sdkana' });
      const [memoryId] = job.memoryIds as [string];

      const memory = await ana.getMemory(memoryId);
      expect(memory.payload.content).to.include(word);
      expect(memory.payload.metadata).to.deep.equal({ room: 'pantry' });
      const plain = await ana.addMemory('Ana cycles to work on Tuesdays');
      await ana.waitForJob(plain.jobId);

      const page = await ana.listMemories({ limit: 1 });
      expect(page.data).to.have.length(1);
      expect(page.nextCursor).to.be.a('string');
      const all = [];
      for await (const listed of ana.listAllMemories({ limit: 1 })) all.push(listed.id);
      expect(all).to.include(memoryId).and.have.length(2);
      expect((await ana.listMemories({ job_id: accepted.jobId })).data.map((listed) => listed.id)).to.deep.equal([memoryId]);
      expect((await ana.listMemories({ metadata: { room: 'pantry' } })).data.map((listed) => listed.id)).to.deep.equal([memoryId]);
      expect((await ana.listMemories({ memory_type: ['no_such_type', 'another'] })).data).to.deep.equal([]);

      expect((await ana.searchMemories(word)).data.map((hit) => hit.id)).to.include(memoryId);
      const forced = await ana.searchMemories({ query: word, strategy: 'direct_lookup', options: { limit: 3, explain: true } });
      expect(forced.data[0]?.id).to.equal(memoryId);
      expect((await ana.searchMemoriesByMode({ query: `where is the ${word} jar`, mode: 'hybrid' })).data.map((hit) => hit.id)).to.include(memoryId);

      const corrected = secretWord('quince');
      const update = await ana.updateMemory(memoryId, { content: `Ana keeps the ${corrected} jar on the top shelf` });
      await ana.waitForJob(update.jobId);
      const history = await ana.getMemoryHistory(memoryId);
      expect(history.data.map((version) => version.version)).to.deep.equal([1, 2]);
      expect((await ana.getMemory(memoryId)).payload.content).to.include(corrected);

      const forget = await ana.deleteMemory(memoryId);
      const receipt = await ana.waitForJob(forget.jobId);
      expect(receipt.receipt).to.be.an('object');
      await rejection(ana.getMemory(memoryId), NotFoundError, 404, 'MEMORY.NOT_FOUND');
      await ana.waitForJob((await ana.deleteJobMemories(plain.jobId)).jobId);
      expect((await ana.listMemories()).data).to.deep.equal([]);
    });

    it('erases an end user, and another end user never sees their memories', async () => {
      const bo = client('sdkbo');
      const word = secretWord('gooseberry');
      const { jobId } = await bo.addMemory(`Bo planted ${word} bushes`);
      const [memoryId] = (await bo.waitForJob(jobId)).memoryIds as [string];
      await rejection(bo.withEndUser('sdkcy').getMemory(memoryId), NotFoundError, 404, 'MEMORY.NOT_FOUND');
      expect((await bo.withEndUser('sdkcy').searchMemories(word)).data).to.deep.equal([]);
      const erase = await new MemoryClient({ baseUrl: service.url, apiKey: KEYS.acme }).eraseEndUser('sdkbo');
      await bo.waitForJob(erase.jobId);
      expect((await bo.listMemories()).data).to.deep.equal([]);
    });

    it('a client acting for one end user erases another, and follows the erasure job as that end user', async () => {
      const alice = client('sdkalice');
      const { jobId } = await client('sdkbob').addMemory(`Bob keeps ${secretWord('medlar')} trees`);
      await client('sdkbob').waitForJob(jobId);
      const kept = await alice.addMemory('Alice keeps her memories');
      await alice.waitForJob(kept.jobId);
      const erase = await alice.eraseEndUser('sdkbob');
      // The job is the erased end user's: asked as alice, it is another end user's job (404, as for any other).
      await rejection(alice.getJob(erase.jobId), NotFoundError, 404, 'JOB.NOT_FOUND');
      expect(await alice.waitForJob(erase.jobId, { endUserId: 'sdkbob' })).to.deep.include({ status: 'Completed', endUserId: 'sdkbob' });
      expect((await client('sdkbob').listMemories()).data).to.deep.equal([]);
      expect((await alice.listMemories()).data.map((memory) => memory.payload.job_id)).to.deep.equal([kept.jobId]);
    });

    it('throws typed errors with the service\'s status, stable code and message', async () => {
      const bad = new MemoryClient({ baseUrl: service.url, apiKey: 'not-a-key-of-this-service', endUserId: 'sdkana', maxRetries: 0 });
      const auth = await rejection(bad.listMemories(), AuthenticationError, 401, 'AUTH.INVALID_KEY');
      expect(auth.message).to.be.a('string').and.not.equal('');
      const ana = client('sdkana');
      await rejection(ana.searchMemories({ query: 'x', options: { limit: 0 } }), BadRequestError, 400, 'SEARCH.INVALID_LIMIT');
      await rejection(ana.getJob('job_1_nobody'), NotFoundError, 404, 'JOB.NOT_FOUND');
      await rejection(ana.getJob('job_1_nobody', { waitMs: 99_999 }), BadRequestError, 400, 'JOB.INVALID_WAIT');
      await rejection(ana.withEndUser('not valid!').listMemories(), BadRequestError, 400, 'REQUEST.INVALID_END_USER');
      await rejection(ana.deleteWebhook('wh_nothing'), NotFoundError, 404, 'WEBHOOK.NOT_FOUND');
      const withoutUser = new MemoryClient({ baseUrl: service.url, apiKey: KEYS.acme });
      const refused = await withoutUser.listMemories().then(() => null, (error: unknown) => error);
      expect(refused).to.be.instanceOf(TypeError);
      expect((refused as Error).message).to.include('endUserId');

      // One Idempotency-Key: the same request answers with the first job; another request with it is refused.
      const idempotencyKey = `sdk-${secretWord('key')}`;
      const first = await ana.addMemory('Ana likes plums', { idempotencyKey });
      expect((await ana.addMemory('Ana likes plums', { idempotencyKey })).jobId).to.equal(first.jobId);
      await rejection(ana.addMemory('Ana likes pears', { idempotencyKey }), UnprocessableEntityError, 422, 'IDEMPOTENCY.KEY_REUSED');
      await ana.waitForJob(first.jobId);
      const unreachable = new MemoryClient({ baseUrl: 'http://127.0.0.1:9', apiKey: KEYS.acme, endUserId: 'sdkana', maxRetries: 1, retryInitialDelayMs: 10 });
      await rejection(unreachable.getLiveness(), MemoryConnectionError, null, 'SERVICE.UNREACHABLE');
    });

    it('waitForJob rejects with the failure of a Failed job, and with JobTimeoutError when time runs out', async () => {
      const hana = client('sdkhana');
      const pdf = await writePdf(['Page 1. The boiler was serviced by Heron Heating.', 'Page 2. Nothing else.']);
      const truncated = await hana.uploadDocument({ file: pdf.subarray(0, Math.floor(pdf.length / 2)), filename: 'boiler.pdf' });
      const failed = await rejection(hana.waitForJob(truncated.jobId, { timeoutMs: 120_000 }), JobFailedError, null, /^DOCUMENT\.(TRUNCATED|CORRUPT)$/);
      expect(failed.reason).to.match(/^enricher failed: /);
      expect(failed.job.status).to.equal('Failed');

      const slow = await hana.addMemory('Hana waters the ferns on Sundays');
      const timedOut = await rejection(hana.waitForJob(slow.jobId, { timeoutMs: 1 }), JobTimeoutError, null, 'JOB.WAIT_TIMEOUT');
      expect(timedOut.job.jobId).to.equal(slow.jobId);
      expect((await hana.waitForJob(slow.jobId)).status).to.equal('Completed');
    });

    it('images from bytes, a Blob or a file path; the preview; a search by image', async () => {
      const ivo = client('sdkivo');
      const receipt = await drawReceipt();
      const path = join(workDir, 'receipt.png');
      writeFileSync(path, receipt);
      const fromBytes = await ivo.addImageMemory({ imageData: new Uint8Array(receipt), userContext: 'the compost receipt' });
      expect(fromBytes.previewUrl).to.match(/\/v1\/memory\/image\/.+\/preview$/);
      const fromBlob = await ivo.addImageMemory({ imageData: new Blob([receipt], { type: 'image/png' }) });
      const fromFile = await ivo.addImageMemory({ imageData: await imageDataFromFile(path), metadata: { source: 'disk' } });
      const memoryIds: string[] = [];
      for (const { jobId } of [fromBytes, fromBlob, fromFile]) memoryIds.push(...(await ivo.waitForJob(jobId)).memoryIds);
      expect(memoryIds).to.have.length(3);
      const preview = await ivo.getImagePreview(fromBytes.jobId);
      expect(preview.type).to.equal('image/webp');
      expect(Buffer.from(await preview.arrayBuffer()).subarray(8, 12).toString('latin1')).to.equal('WEBP');
      const found = await ivo.searchMemories({ queryImage: new Uint8Array(receipt), options: { limit: 3 } });
      expect(found.data.map((hit) => hit.payload.job_id)).to.include(fromBytes.jobId);

      // The Memory type the SDK hands out is the document's: an image memory's answers match it field for field.
      const conforms = openApiConformance(await ivo.getOpenApiDocument() as Parameters<typeof openApiConformance>[0]);
      const memory = await ivo.getMemory(memoryIds[2]!);
      conforms('GET', '/v1/memories/{id}', { status: 200, body: memory });
      expect(memory.payload.image?.width).to.be.a('number');
      expect(memory.payload.source_type).to.equal('image');
      conforms('POST', '/v1/search', { status: 200, body: found });
    });

    it('PDF uploads from a file path, a Node stream, a Blob and a Buffer', async () => {
      const pia = client('sdkpia');
      const pdf = await writePdf(['Page 1. The gutters were cleared in March.', 'Page 2. The chimney was swept in April.']);
      const path = join(workDir, 'house.pdf');
      writeFileSync(path, pdf);
      const uploads = [
        await pia.uploadDocument({ file: await pdfFromFile(path), filename: 'house.pdf', metadata: { kind: 'file' } }),
        await pia.uploadDocument({ file: await pdfFromStream(createReadStream(path)), filename: 'stream.pdf' }),
        await pia.uploadDocument({ file: new Blob([pdf], { type: 'application/pdf' }) }),
        await pia.uploadDocument({ file: pdf }),
        // A Blob typed as anything (a download's application/octet-stream) is sent as application/pdf all the same.
        await pia.uploadDocument({ file: new Blob([pdf], { type: 'application/octet-stream' }) }),
      ];
      expect(uploads[0]!.storagePath).to.match(/house\.pdf$/);
      for (const { jobId } of uploads) expect((await pia.waitForJob(jobId, { timeoutMs: 120_000 })).memoryIds).to.have.length(2);
      const pages = await pia.listMemories({ job_id: uploads[0]!.jobId });
      expect(pages.data.map((page) => page.payload.memory_type)).to.deep.equal(['document_page', 'document_page']);
      expect(pages.data[0]!.payload.metadata).to.deep.include({ kind: 'file' });
      const conforms = openApiConformance(await pia.getOpenApiDocument() as Parameters<typeof openApiConformance>[0]);
      conforms('GET', '/v1/memories', { status: 200, body: pages });
      expect(pages.data.map((page) => page.payload.document?.page_number).sort()).to.deep.equal([1, 2]);
    });

    describe('retries behind a fault-injecting proxy', () => {
      const proxy = new FaultyProxy(() => service.url);
      let proxyUrl = '';
      before(async () => {
        proxyUrl = await proxy.start();
        stops.push(() => proxy.stop());
      });
      const viaProxy = (extra: Partial<ConstructorParameters<typeof MemoryClient>[0]> = {}) =>
        new MemoryClient({ baseUrl: proxyUrl, apiKey: KEYS.acme, endUserId: 'sdkrita', retryInitialDelayMs: 50, ...extra });

      it('a write whose answer is lost (503 with Retry-After) is retried after Retry-After with the same Idempotency-Key: one job, one memory', async () => {
        const before = (await client('sdkrita').listMemories()).data.length;
        proxy.seen.length = 0;
        proxy.plan.push('lose-with-503');
        const started = Date.now();
        const accepted = await viaProxy().addMemory('Rita repaints the shed every spring');
        expect(Date.now() - started, 'waited Retry-After: 1').to.be.at.least(1_000);
        expect(proxy.seen).to.have.length(2);
        const [first, retry] = proxy.seen as [FaultyProxy['seen'][number], FaultyProxy['seen'][number]];
        expect(first.idempotencyKey).to.match(/^[0-9a-f-]{36}$/);
        expect(retry.idempotencyKey).to.equal(first.idempotencyKey);
        expect(first.forwardedStatus, 'the service accepted the first attempt').to.equal(202);
        expect(accepted.jobId).to.equal((first.forwardedBody as { jobId: string }).jobId);
        await viaProxy().waitForJob(accepted.jobId);
        expect((await client('sdkrita').listMemories()).data).to.have.length(before + 1);
      });

      it('a dropped connection is retried the same way, and a new call gets a new key', async () => {
        const before = (await client('sdkrita').listMemories()).data.length;
        proxy.seen.length = 0;
        proxy.plan.push('lose-connection');
        const accepted = await viaProxy().addMemory('Rita keeps bees behind the shed');
        expect(proxy.seen.map((entry) => entry.idempotencyKey)).to.have.length(2).and.satisfy((keys: string[]) => keys[0] === keys[1]);
        await viaProxy().waitForJob(accepted.jobId);
        await viaProxy().waitForJob((await viaProxy().addMemory('Rita sells honey in August')).jobId);
        expect(proxy.seen[2]!.idempotencyKey).to.not.equal(proxy.seen[0]!.idempotencyKey);
        expect((await client('sdkrita').listMemories()).data, 'two memories, not three').to.have.length(before + 2);
      });

      it('a keyed write that still fails after its retries names its Idempotency-Key: the application\'s retry with it gets the first job', async () => {
        const before = (await client('sdkrita').listMemories()).data.length;
        proxy.seen.length = 0;
        proxy.plan.push('lose-with-503', 'lose-with-503');
        const lost = await rejection(viaProxy({ maxRetries: 1 }).addMemory('Rita stores apples in the cellar'), ServiceUnavailableError, 503, 'SERVICE.UNAVAILABLE');
        expect(proxy.seen).to.have.length(2);
        expect(proxy.seen[0]!.forwardedStatus, 'the service accepted the first attempt').to.equal(202);
        expect(lost.idempotencyKey).to.be.a('string').and.equal(proxy.seen[0]!.idempotencyKey);
        // The application's own retry, a while later, with the key the error named: the first job, not a second memory.
        const again = await viaProxy().addMemory('Rita stores apples in the cellar', { idempotencyKey: lost.idempotencyKey! });
        expect(again.jobId).to.equal((proxy.seen[0]!.forwardedBody as { jobId: string }).jobId);
        await viaProxy().waitForJob(again.jobId);
        expect((await client('sdkrita').listMemories()).data, 'one memory').to.have.length(before + 1);
      });

      it('a proxy\'s 502 page after the service took the write is retried with the same key: one job, one memory', async () => {
        const before = (await client('sdkrita').listMemories()).data.length;
        proxy.seen.length = 0;
        proxy.plan.push('lose-with-502');
        const accepted = await viaProxy().addMemory('Rita mends the fence in June');
        expect(proxy.seen.map((entry) => entry.idempotencyKey)).to.have.length(2).and.satisfy((keys: string[]) => keys[0] === keys[1]);
        expect(proxy.seen[0]!.forwardedStatus).to.equal(202);
        expect(accepted.jobId).to.equal((proxy.seen[0]!.forwardedBody as { jobId: string }).jobId);
        await viaProxy().waitForJob(accepted.jobId);
        expect((await client('sdkrita').listMemories()).data).to.have.length(before + 1);
      });

      it('gives up after maxRetries with the typed error, and times out an attempt that gets no answer', async () => {
        proxy.seen.length = 0;
        proxy.plan.push('lose-with-503', 'lose-with-503');
        const unavailable = await rejection(viaProxy({ maxRetries: 1 }).getLiveness(), ServiceUnavailableError, 503, 'SERVICE.UNAVAILABLE');
        expect(unavailable.retryAfterSeconds).to.equal(1);
        expect(proxy.seen).to.have.length(2);

        proxy.seen.length = 0;
        proxy.plan.push('hang', 'hang');
        await rejection(viaProxy({ maxRetries: 1, timeoutMs: 300 }).getLiveness(), MemoryTimeoutError, null, 'SERVICE.TIMEOUT');
        expect(proxy.seen).to.have.length(2);
      });

      it('an AbortSignal ends the call while it waits for Retry-After, with the signal\'s reason', async () => {
        proxy.seen.length = 0;
        proxy.plan.push('lose-with-503');
        const controller = new AbortController();
        setTimeout(() => controller.abort(new Error('the user went away')), 200);
        const started = Date.now();
        const error = await viaProxy().getLiveness({ signal: controller.signal }).then(() => null, (caught: unknown) => caught);
        expect((error as Error).message).to.equal('the user went away');
        expect(Date.now() - started).to.be.below(900);
      });

      it('does not resend a write without an Idempotency-Key after a dropped connection (createWebhook)', async () => {
        proxy.seen.length = 0;
        proxy.plan.push('lose-connection');
        const receiver = new Receiver();
        stops.push(() => receiver.stop());
        await rejection(viaProxy().createWebhook({ url: await receiver.start(), events: ['job.completed'] }), MemoryConnectionError, null, 'SERVICE.UNREACHABLE');
        expect(proxy.seen).to.have.length(1);
        const created = (proxy.seen[0]!.forwardedBody as { id: string }).id;
        await client('sdkrita').deleteWebhook(created);
      });

      it('does not resend createWebhook after a 503 SERVICE.UNAVAILABLE that came once the endpoint was stored: one endpoint', async () => {
        const receiver = new Receiver();
        stops.push(() => receiver.stop());
        const url = await receiver.start();
        proxy.seen.length = 0;
        proxy.plan.push('lose-with-503');
        await rejection(viaProxy().createWebhook({ url, events: ['job.completed'] }), ServiceUnavailableError, 503, 'SERVICE.UNAVAILABLE');
        expect(proxy.seen.map((entry) => entry.forwardedStatus)).to.deep.equal([201]);
        const registered = (await client('sdkrita').listWebhooks()).data.filter((endpoint) => endpoint.url === url);
        expect(registered, 'one endpoint, not two').to.have.length(1);
        await client('sdkrita').deleteWebhook(registered[0]!.id);
      });

      it('a deleteWebhook whose answer is lost resolves when its retry finds the endpoint gone', async () => {
        const receiver = new Receiver();
        stops.push(() => receiver.stop());
        const created = await client('sdkrita').createWebhook({ url: await receiver.start(), events: ['job.completed'] });
        proxy.seen.length = 0;
        proxy.plan.push('lose-connection');
        await viaProxy().deleteWebhook(created.id);
        expect(proxy.seen.map((entry) => entry.forwardedStatus), 'deleted by the first attempt').to.deep.equal([204, 404]);
        await rejection(client('sdkrita').getWebhook(created.id), NotFoundError, 404, 'WEBHOOK.NOT_FOUND');
      });
    });

    it('webhooks: register, verify real deliveries with verifyWebhook, rotate, list and redeliver, delete', async () => {
      const receiver = new Receiver();
      stops.push(() => receiver.stop());
      const url = await receiver.start();
      const acme = client('sdkwes');
      const created = await acme.createWebhook({ url, events: ['job.completed', 'memory.deleted'] });
      expect(created.secret).to.match(/^whsec_/);
      expect((await acme.listWebhooks()).data.map((endpoint) => endpoint.id)).to.include(created.id);
      expect(await acme.getWebhook(created.id)).to.deep.equal({ id: created.id, url, events: ['job.completed', 'memory.deleted'], createdAt: created.createdAt });

      const { jobId } = await acme.addMemory('Wes fixed the gate latch');
      await waitFor(() => receiver.forJob(jobId).length > 0, 'job.completed delivered', 60_000);
      const delivery = receiver.forJob(jobId)[0]!;
      const event = await verifyWebhook({ secret: created.secret, headers: delivery.headers, body: delivery.body });
      expect(event).to.deep.include({ type: 'job.completed' });
      expect(event.data).to.deep.include({ jobId, status: 'Completed' });
      const tampered = await verifyWebhook({ secret: created.secret, headers: delivery.headers, body: delivery.body.replace('Completed', 'Failed') }).then(() => null, (error: unknown) => error);
      expect(tampered).to.be.instanceOf(WebhookVerificationError).and.have.property('code', 'WEBHOOK.INVALID_SIGNATURE');
      const otherSecret = await verifyWebhook({ secret: `whsec_${Buffer.alloc(24, 7).toString('base64')}`, headers: delivery.headers, body: delivery.body }).then(() => null, (error: unknown) => error);
      expect(otherSecret).to.be.instanceOf(WebhookVerificationError);

      const rotated = await acme.rotateWebhookSecret(created.id);
      expect(rotated.secret).to.not.equal(created.secret);
      const next = await acme.addMemory('Wes oiled the hinges');
      await waitFor(() => receiver.forJob(next.jobId).length > 0, 'job.completed after rotation', 60_000);
      const afterRotation = receiver.forJob(next.jobId)[0]!;
      expect(String(afterRotation.headers['webhook-signature']).split(' ').length, 'signed with both secrets during the overlap').to.be.at.least(2);
      for (const secret of [rotated.secret, created.secret]) {
        expect((await verifyWebhook({ secret, headers: afterRotation.headers, body: afterRotation.body })).type).to.equal('job.completed');
      }

      const deliveryId = String(delivery.headers['webhook-id']);
      await waitFor(async () => (await acme.listWebhookDeliveries(created.id)).data.some((d) => d.id === deliveryId && d.state === 'delivered'), 'delivery logged', 30_000);
      const again = await acme.redeliverWebhookDelivery(created.id, deliveryId);
      expect(again.id).to.equal(deliveryId);
      await waitFor(() => receiver.received.filter((r) => r.headers['webhook-id'] === deliveryId).length === 2, 'redelivered', 30_000);
      const redelivered = receiver.received.filter((r) => r.headers['webhook-id'] === deliveryId)[1]!;
      expect((await verifyWebhook({ secret: rotated.secret, headers: redelivered.headers, body: redelivered.body })).data).to.deep.include({ jobId });

      // Every body received is the document's WebhookEvent, the type verifyWebhook resolves with: memory.deleted of a
      // job's memories (targetJobId) as well as job.completed.
      const forgotten = await acme.deleteJobMemories(jobId);
      await waitFor(() => receiver.events('memory.deleted').some((event) => event.data.jobId === forgotten.jobId), 'memory.deleted delivered', 60_000);
      expect(receiver.events('memory.deleted').find((event) => event.data.jobId === forgotten.jobId)!.data.targetJobId).to.equal(jobId);
      // Formats (date-time) are not checked: ajv-formats is not a dependency of the tests.
      const ajv = new Ajv2020({ strict: false, validateFormats: false });
      ajv.addSchema({ ...await acme.getOpenApiDocument(), $id: 'openapi' });
      const isWebhookEvent = ajv.getSchema('openapi#/components/schemas/WebhookEvent')!;
      for (const { body } of receiver.received) expect(isWebhookEvent(JSON.parse(body)), `${body}: ${ajv.errorsText(isWebhookEvent.errors)}`).to.equal(true);

      await acme.deleteWebhook(created.id);
      await rejection(acme.getWebhook(created.id), NotFoundError, 404, 'WEBHOOK.NOT_FOUND');
    });

    if (options.packFrom) {
      const repoRoot = options.packFrom;
      it('npm pack gives a tarball that installs into a project without TypeScript and runs with plain node (ESM)', async function () {
        this.timeout(240_000);
        const sdkDir = join(repoRoot, 'libs', 'sdk');
        const packageDir = join(workDir, 'package');
        mkdirSync(packageDir);
        // Built here, not in libs/sdk/dist, so a build running beside the test cannot change what is packed.
        execFileSync(process.execPath, [join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(sdkDir, 'tsconfig.build.json'), '--outDir', join(packageDir, 'dist')], { stdio: 'pipe' });
        for (const file of ['package.json', 'README.md']) copyFileSync(join(sdkDir, file), join(packageDir, file));
        const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', workDir], { cwd: packageDir, encoding: 'utf8' }).trim().split('\n').pop()!;
        const app = join(workDir, 'app');
        mkdirSync(app);
        writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'sdk-consumer', version: '1.0.0', private: true, type: 'module' }));
        execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', join(workDir, tarball)], { cwd: app, stdio: 'pipe' });
        expect(readdirSync(join(app, 'node_modules')).filter((name) => !name.startsWith('.')), 'no dependency, no TypeScript').to.deep.equal(['@memory']);
        expect(existsSync(join(app, 'node_modules', '@memory', 'sdk', 'dist', 'index.d.ts'))).to.equal(true);
        expect(existsSync(join(app, 'node_modules', '@memory', 'sdk', 'src'))).to.equal(false);
        writeFileSync(join(app, 'main.js'), [
          "import { MemoryClient, NotFoundError } from '@memory/sdk';",
          "import { pdfFromFile } from '@memory/sdk/node';",
          'const memory = new MemoryClient({ baseUrl: process.env.MEMORY_URL, apiKey: process.env.MEMORY_API_KEY, endUserId: "sdkpack" });',
          'const { jobId } = await memory.addMemory("The packed SDK was installed from a tarball");',
          'const job = await memory.waitForJob(jobId);',
          'const missing = await memory.getMemory("mem_nothing").catch((error) => error instanceof NotFoundError && error.code);',
          'console.log(JSON.stringify({ status: job.status, memories: job.memoryIds.length, missing, pdfHelper: typeof pdfFromFile }));',
        ].join('\n'));
        const out = execFileSync(process.execPath, ['main.js'], { cwd: app, encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '', MEMORY_URL: service.url, MEMORY_API_KEY: KEYS.acme } });
        expect(JSON.parse(out)).to.deep.equal({ status: 'Completed', memories: 1, missing: 'MEMORY.NOT_FOUND', pdfHelper: 'function' });
      });
    }

  });
}
