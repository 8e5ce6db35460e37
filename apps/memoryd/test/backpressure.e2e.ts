import { expect } from 'chai';
import { expectError, openApiConformance, type ServiceProcess } from '@memory/testing';
import { caller, KEYS, memorydProcess, waitForDrain, waitForJob, type Caller } from './harness.js';

/** Backpressure on the real embedded service, each bound made small through its env variable (README, "Limits and backpressure"). */
const text = (content: string) => ({ source: { type: 'text', content } });
const search = (api: Caller) => api.post('/v1/search', { query: 'heron', options: { limit: 3 } });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function serving(env: Record<string, string>) {
  const service = memorydProcess(env);
  before(() => service.start());
  after(async () => {
    await service.stop();
    service.cleanup();
  });
  return service;
}

async function conformance(service: ServiceProcess) {
  return openApiConformance((await caller(service, null, null).get('/openapi.json')).body);
}

describe('backpressure on memoryd (embedded default)', () => {
  describe('a tenant over its rate (MEMORY_TENANT_RATE_PER_S=1, MEMORY_TENANT_BURST=3)', () => {
    const service = serving({ MEMORY_TENANT_RATE_PER_S: '1', MEMORY_TENANT_BURST: '3' });

    it('gets 429 RATE.LIMITED with Retry-After and RateLimit headers after the burst, on the fast path and the Express routes; another tenant and searches are unaffected; a wait recovers', async () => {
      const acme = caller(service, KEYS.acme, 'ada');
      const conforms = await conformance(service);
      // Sent at once, so that the one-token-a-second refill cannot return a token between them on a loaded machine.
      const acks = await Promise.all(Array.from({ length: 3 }, (_, i) => acme.post('/v1/memory', text(`A grey heron on the pond, visit ${i}.`))));
      for (const ack of acks) {
        expect(ack.status, JSON.stringify(ack.body)).to.equal(202);
        expect(ack.headers.get('ratelimit-limit')).to.equal('3');
        conforms('POST', '/v1/memory', ack);
      }
      expect(acks.map((ack) => ack.headers.get('ratelimit-remaining')).sort()).to.deep.equal(['0', '1', '2']);

      // The Express routes that create jobs pass the same check (here DELETE; a gzip text body falls through to Express too).
      const [refused, forget, spelledOtherwise] = await Promise.all([
        acme.post('/v1/memory', text('One heron too many.')),
        acme.delete('/v1/memories/mem_0000000000000000000000000'),
        // Express routes this to POST /v1/memory as well: the same check applies.
        acme.post('/V1/Memory/', text('One heron too many, spelled otherwise.')),
      ]);
      expectError(spelledOtherwise, 429, 'RATE.LIMITED');
      expectError(refused, 429, 'RATE.LIMITED');
      conforms('POST', '/v1/memory', refused);
      expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 2);
      expect(refused.headers.get('ratelimit-remaining')).to.equal('0');
      expect(Number(refused.headers.get('ratelimit-reset'))).to.be.within(1, 3);
      expectError(forget, 429, 'RATE.LIMITED');
      conforms('DELETE', '/v1/memories/{id}', forget);

      const globex = caller(service, KEYS.globex, 'gus');
      expect((await globex.post('/v1/memory', text('Globex is under its own quota.'))).status).to.equal(202);
      const found = await search(acme);
      expect(found.status, JSON.stringify(found.body)).to.equal(200);
      expect(found.headers.get('ratelimit-limit'), 'searches are not limited').to.equal(null);

      await sleep(Number(refused.headers.get('retry-after')) * 1000);
      const again = await acme.post('/v1/memory', text('The heron came back after the wait.'));
      expect(again.status, JSON.stringify(again.body)).to.equal(202);
    });
  });

  describe('a tenant at its in-flight bound (MEMORY_TENANT_MAX_IN_FLIGHT=2)', () => {
    const service = serving({ MEMORY_TENANT_MAX_IN_FLIGHT: '2' });

    it('gets 429 RATE.TOO_MANY_IN_FLIGHT beyond 2 unfinished jobs, and is admitted again once they finish', async () => {
      const acme = caller(service, KEYS.acme, 'ada');
      const conforms = await conformance(service);
      // Sent at once: admission reserves a place per request, so concurrent requests cannot all pass at the bound.
      const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => acme.post('/v1/memory', text(`Heron count number ${i} at dawn.`))));
      const accepted = answers.filter((answer) => answer.status === 202);
      const refused = answers.filter((answer) => answer.status === 429);
      expect(accepted.length, JSON.stringify(answers.map((answer) => answer.status))).to.equal(2);
      expect(refused.length).to.equal(4);
      for (const answer of refused) {
        expectError(answer, 429, 'RATE.TOO_MANY_IN_FLIGHT');
        expect(answer.headers.get('retry-after')).to.equal('1');
        conforms('POST', '/v1/memory', answer);
      }
      expect((await caller(service, KEYS.globex, 'gus').post('/v1/memory', text('Globex has its own bound.'))).status).to.equal(202);
      expect((await search(acme)).status).to.equal(200);

      for (const answer of accepted) expect((await waitForJob(acme, answer.body.jobId)).status).to.equal('Completed');
      await sleep(300);
      const again = await acme.post('/v1/memory', text('After the first two finished.'));
      expect(again.status, JSON.stringify(again.body)).to.equal(202);
    });
  });

  describe('a pipeline behind its backlog bound (MEMORY_MAX_BACKLOG_RECORDS=0)', () => {
    const service = serving({ MEMORY_MAX_BACKLOG_RECORDS: '0' });

    it('answers new writes 503 SERVICE.OVERLOADED with Retry-After while searches answer 200, and accepts again once drained', async () => {
      const acme = caller(service, KEYS.acme, 'ada');
      const conforms = await conformance(service);
      // The backlog is read at most once a second, by the first write after that second, before its own record is
      // appended: writes sent in bursts back to back leave records for that reading to see whatever the enricher's pace.
      let overloaded;
      const deadline = Date.now() + 30_000;
      for (let round = 0; !overloaded && Date.now() < deadline; round++) {
        const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => acme.post('/v1/memory', text(`Written while the pipeline is behind, ${round}.${i}.`))));
        expect(answers.every((answer) => answer.status === 202 || answer.status === 503), JSON.stringify(answers.map((answer) => answer.status))).to.equal(true);
        overloaded = answers.find((answer) => answer.status === 503);
      }
      expect(overloaded, 'a 503 while the pipeline was behind').to.exist;
      expectError(overloaded!, 503, 'SERVICE.OVERLOADED');
      expect(overloaded!.headers.get('retry-after')).to.equal('5');
      conforms('POST', '/v1/memory', overloaded!);
      const found = await search(acme);
      expect(found.status, JSON.stringify(found.body)).to.equal(200);

      // Drained: the next write after the reading's second is up reads the backlog again and is admitted.
      await waitForDrain(service);
      await sleep(1_100);
      const after = await acme.post('/v1/memory', text('Accepted again once the pipeline caught up.'));
      expect(after.status, JSON.stringify(after.body)).to.equal(202);
    });
  });

  describe('a data folder under its free-space floor (MEMORY_MIN_FREE_DISK_MB above the free space)', () => {
    const service = memorydProcess();
    after(async () => {
      await service.stop();
      service.cleanup();
    });

    it('answers writes 507 STORAGE.FULL while reads and searches answer, and loses nothing accepted before', async () => {
      await service.start();
      const acme = caller(service, KEYS.acme, 'ada');
      const ack = await acme.post('/v1/memory', text('The heron nests in the old willow by the boathouse.'));
      expect(ack.status).to.equal(202);
      // Stopped before the job is known to have finished; restarted with a floor no disk meets.
      await service.stop();
      await service.start({ MEMORY_MIN_FREE_DISK_MB: '999999999' });
      const conforms = await conformance(service);

      const refused = await acme.post('/v1/memory', text('No room for this one.'));
      expectError(refused, 507, 'STORAGE.FULL');
      expect(refused.headers.get('retry-after')).to.equal('60');
      conforms('POST', '/v1/memory', refused);
      const patch = await acme.patch('/v1/memories/mem_0000000000000000000000000', { content: 'x' });
      expectError(patch, 507, 'STORAGE.FULL');
      conforms('PATCH', '/v1/memories/{id}', patch);

      expect((await waitForJob(acme, ack.body.jobId)).status).to.equal('Completed');
      const found = await acme.post('/v1/search', { query: 'where does the heron nest?', options: { limit: 3 } });
      expect(found.status).to.equal(200);
      expect(JSON.stringify(found.body)).to.contain('old willow');
    });
  });
});
