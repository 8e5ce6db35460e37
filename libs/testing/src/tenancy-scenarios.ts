import { expect } from 'chai';
import { seededRandom } from '@memory/platform';
import { caller, waitForJob, type Answer, type Caller } from './http-caller.js';
import type { ServiceUnderTest } from './memory-api-scenarios.js';
import { secretWord } from './scenario-words.js';
import { TEST_KEYS as KEYS } from './service-process.js';
import { writePdf } from './test-documents.js';
import { drawLandscape, drawReceipt } from './test-images.js';

/** One end user of one tenant, with a word only their memories contain and the ids the service gave them. */
interface Actor {
  name: string;
  apiKey: string;
  endUserId: string;
  marker: string;
  api: Caller;
  jobIds: string[];
  imageJobIds: string[];
  memoryIds: Set<string>;
  deleted: Set<string>;
}

interface Step {
  actor: Actor;
  what: string;
}

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/**
 * Tenancy, randomised: end users of two tenants (one end user id taken in both) run a seeded random sequence of every
 * operation: ingest text, image and PDF; search every mode and strategy, by their own words and by others'; read
 * jobs, previews, memories, lists and histories; correct and delete. Every answer is read for another owner's words
 * and ids, and every guess of another owner's id must be answered exactly as an id that never existed. The seed is in
 * the title; TENANCY_SEED=<seed> replays a failure step by step, and TENANCY_STEPS sets the length.
 */
export function describeTenancyScenarios(title: string, service: ServiceUnderTest): void {
  const seed = Number(process.env['TENANCY_SEED'] ?? Math.floor(Math.random() * 2 ** 31));
  const steps = Number(process.env['TENANCY_STEPS'] ?? 120);
  describe(`${title} (seed ${seed})`, function () {
    this.timeout(600_000);
    let pdfPages: (marker: string) => Promise<Buffer>;
    const images: Buffer[] = [];

    before(async () => {
      await service.start();
      images.push(await drawReceipt(), await drawLandscape());
      pdfPages = (marker) => writePdf([`The ${marker} ledger, page one: invoices of March.`, `Page two of the ${marker} ledger: receipts of April.`]);
    });
    after(() => service.stop());

    it(`never shows one owner's memories, jobs or files to another, over ${steps} random operations`, async () => {
      const random = seededRandom(seed);
      const run = seed.toString(36);
      const actor = (name: string, apiKey: string, endUserId: string): Actor => ({
        name, apiKey, endUserId, marker: secretWord(`mark${name}`), api: caller(service, apiKey, endUserId), jobIds: [], imageJobIds: [], memoryIds: new Set(), deleted: new Set(),
      });
      // The same end user id in two tenants is the case a store keyed by end user alone would get wrong.
      const actors = [actor('a1', KEYS.acme, `ten-${run}-1`), actor('a2', KEYS.acme, `ten-${run}-2`), actor('g1', KEYS.globex, `ten-${run}-1`)];
      const history: Step[] = [];
      const others = (self: Actor) => actors.filter((candidate) => candidate !== self);

      /** The answer holds nothing of another owner: no word of theirs (but what the request itself sent, echoed), no id only they have. */
      const expectOwn = (self: Actor, answer: Answer, what: string, sent = '') => {
        const text = sent.split(/\s+/).filter(Boolean).reduce((rest, word) => rest.split(word).join(''), JSON.stringify(answer.body ?? ''));
        for (const other of others(self)) {
          const context = () => `seed ${seed}, step ${history.length} (${what}) as ${self.name}: ${other.name}'s data in ${text.slice(0, 400)}\nlast steps: ${history.slice(-8).map((s) => `${s.actor.name}: ${s.what}`).join(' | ')}`;
          expect(text.includes(other.marker), context()).to.equal(false);
          for (const id of [...other.jobIds, ...other.memoryIds]) {
            if (!self.jobIds.includes(id) && !self.memoryIds.has(id)) expect(text.includes(id), context()).to.equal(false);
          }
        }
      };
      /** A guess of another owner's id is answered as an id of that shape that never existed: same status, same code. */
      const expectUnknown = async (self: Actor, path: (id: string) => string, foreignId: string, neverId: string, method: 'get' | 'delete' | 'patch' = 'get') => {
        const send = (id: string) => (method === 'patch' ? self.api.patch(path(id), { content: `${self.marker} changed` }) : self.api[method](path(id)));
        const [foreign, never] = [await send(foreignId), await send(neverId)];
        expect([foreign.status, foreign.body?.error?.code], `seed ${seed}: ${method} ${path(foreignId)} as ${self.name}`).to.deep.equal([never.status, never.body?.error?.code]);
        // A DELETE of an id the caller could own is accepted either way (forgetting is idempotent, and says nothing);
        // that it removed nothing of the owner's is checked by the owner's final listing.
        if (method === 'delete' && foreign.status === 202) {
          self.jobIds.push(foreign.body.jobId, never.body.jobId);
          return;
        }
        expect(foreign.status, `seed ${seed}: ${path(foreignId)}`).to.equal(404);
      };
      const someForeign = (self: Actor, ids: (other: Actor) => readonly string[]) => {
        const candidates = others(self).flatMap((other) => ids(other).filter((id) => !self.jobIds.includes(id) && !self.memoryIds.has(id)));
        return candidates.length ? pick(random, candidates) : null;
      };
      const accepted = (self: Actor, answer: Answer, what: string, image = false) => {
        expect(answer.status, `seed ${seed}: ${what}: ${JSON.stringify(answer.body)}`).to.equal(202);
        self.jobIds.push(answer.body.jobId);
        if (image) self.imageJobIds.push(answer.body.jobId);
      };
      const settled = new Set<string>();
      const updateTargets = new Map<string, string>();
      // Each job waited for once: a job whose memories were all deleted since is gone, record and all.
      const settle = async (self: Actor) => {
        for (const jobId of self.jobIds.filter((id) => !settled.has(id))) {
          settled.add(jobId);
          // A correction of a memory deleted meanwhile may be gone with it.
          const target = updateTargets.get(jobId);
          if (target && self.deleted.has(target) && (await self.api.get(`/v1/jobs/${jobId}`)).status === 404) continue;
          const job = await waitForJob(self.api, jobId, 120_000);
          expectOwn(self, { status: 200, body: job, headers: new Headers() }, `job ${jobId}`);
          // A forgetting job names what it forgot; every other job, what it made or corrected.
          if (!jobId.startsWith('del_job_')) for (const id of job.memoryIds ?? []) if (id && !self.deleted.has(id)) self.memoryIds.add(id);
        }
      };

      const operations: Array<[weight: number, name: string, run: (self: Actor) => Promise<void>]> = [
        [24, 'ingest text', async (self) => {
          const answer = await self.api.post('/v1/memory', { source: { type: 'text', content: `${self.marker} note: ${pick(random, ['met Dana at the harbour', 'paid the plumber 120 euros', 'the train to Porto leaves at 9'])}` }, metadata: { owner: self.name } });
          accepted(self, answer, 'ingest text');
        }],
        [4, 'ingest image', async (self) => {
          accepted(self, await self.api.post('/v1/memory/image', { imageData: pick(random, images).toString('base64'), userContext: `${self.marker} photo` }), 'ingest image', true);
        }],
        [2, 'ingest PDF', async (self) => {
          const form = new FormData();
          form.append('file', new Blob([await pdfPages(self.marker)], { type: 'application/pdf' }), `${self.marker}.pdf`);
          const res = await fetch(`${service.url}/v1/ingest/document/upload`, { method: 'POST', headers: { authorization: `Bearer ${self.apiKey}`, 'x-end-user-id': self.endUserId }, body: form });
          accepted(self, { status: res.status, body: await res.json(), headers: res.headers }, 'ingest PDF');
        }],
        [22, 'search', async (self) => {
          const whose = random() < 0.5 ? self : pick(random, others(self));
          const query = `${whose.marker} ${pick(random, ['note', 'photo', 'ledger', 'harbour', 'plumber'])}`;
          const explain = random() < 0.3;
          const route = pick(random, ['strategy', 'mode', 'automatic'] as const);
          const answer = route === 'mode'
            ? await self.api.post('/v1/memories/search', { query, mode: pick(random, ['factual', 'conceptual', 'hybrid']), options: { limit: 20, explain } })
            : await self.api.post('/v1/search', { query, ...(route === 'strategy' ? { strategy: pick(random, ['direct_lookup', 'centroid_aware', 'entity_anchor', 'temporal_range']) } : {}), options: { limit: 20, explain } });
          expect(answer.status, `seed ${seed}: search ${JSON.stringify(answer.body)}`).to.equal(200);
          expectOwn(self, answer, `search "${query}" (${route})`, query);
        }],
        [3, 'search by image', async (self) => {
          const answer = await self.api.post('/v1/search', { queryImage: pick(random, images).toString('base64'), options: { limit: 10 } });
          expect(answer.status, `seed ${seed}: image search ${JSON.stringify(answer.body)}`).to.equal(200);
          expectOwn(self, answer, 'search by image');
        }],
        [10, 'read a job', async (self) => {
          if (self.jobIds.length && random() < 0.5) return expectOwn(self, await self.api.get(`/v1/jobs/${pick(random, self.jobIds)}`), 'own job');
          const foreign = someForeign(self, (other) => other.jobIds);
          if (foreign) await expectUnknown(self, (id) => `/v1/jobs/${id}`, foreign, foreign.replace(/_\d{13}_/, '_1000000000000_'));
        }],
        [4, 'read a preview', async (self) => {
          const foreign = someForeign(self, (other) => other.imageJobIds);
          if (foreign) await expectUnknown(self, (id) => `/v1/memory/image/${id}/preview`, foreign, foreign.replace(/_\d{13}_/, '_1000000000000_'));
        }],
        [10, 'read a memory', async (self) => {
          if (self.memoryIds.size && random() < 0.5) return expectOwn(self, await self.api.get(`/v1/memories/${pick(random, [...self.memoryIds])}`), 'own memory');
          const foreign = someForeign(self, (other) => [...other.memoryIds]);
          if (foreign) await expectUnknown(self, (id) => `/v1/memories/${id}`, foreign, foreign.replace(/_\d{13}_/, '_1000000000000_'));
        }],
        [6, 'list memories', async (self) => {
          const filter = pick(random, ['', '&memory_type=image', '&memory_type=document_page', `&metadata.owner=${pick(random, actors).name}`]);
          const answer = await self.api.get(`/v1/memories?limit=50${filter}`);
          expect(answer.status, `seed ${seed}: list ${JSON.stringify(answer.body)}`).to.equal(200);
          expectOwn(self, answer, `list${filter}`);
        }],
        [4, 'read a history', async (self) => {
          if (self.memoryIds.size && random() < 0.5) return expectOwn(self, await self.api.get(`/v1/memories/${pick(random, [...self.memoryIds])}/history`), 'own history');
          const foreign = someForeign(self, (other) => [...other.memoryIds]);
          if (foreign) await expectUnknown(self, (id) => `/v1/memories/${id}/history`, foreign, foreign.replace(/_\d{13}_/, '_1000000000000_'));
        }],
        [4, 'correct a memory', async (self) => {
          // Only text memories can be corrected (an image or a page is deleted and ingested again).
          const own = [...self.memoryIds].filter((id) => id.startsWith('mem_job_'));
          if (own.length && random() < 0.5) {
            const id = pick(random, own);
            const answer = await self.api.patch(`/v1/memories/${id}`, { content: `${self.marker} corrected note` });
            accepted(self, answer, 'update');
            updateTargets.set(answer.body.jobId, id);
            return;
          }
          const foreign = someForeign(self, (other) => [...other.memoryIds]);
          if (foreign) await expectUnknown(self, (id) => `/v1/memories/${id}`, foreign, foreign.replace(/_\d{13}_/, '_1000000000000_'), 'patch');
        }],
        [4, 'delete a memory', async (self) => {
          const own = [...self.memoryIds];
          if (own.length && random() < 0.5) {
            const id = pick(random, own);
            accepted(self, await self.api.delete(`/v1/memories/${id}`), 'delete');
            self.memoryIds.delete(id);
            self.deleted.add(id);
            return;
          }
          const foreign = someForeign(self, (other) => [...other.memoryIds]);
          if (foreign) await expectUnknown(self, (id) => `/v1/memories/${id}`, foreign, foreign.replace(/_\d{13}_/, '_1000000000000_'), 'delete');
        }],
        [3, 'settle jobs', async (self) => settle(self)],
      ];
      const totalWeight = operations.reduce((sum, [weight]) => sum + weight, 0);

      for (let step = 0; step < steps; step++) {
        const self = pick(random, actors);
        let draw = random() * totalWeight;
        const [, name, operation] = operations.find(([weight]) => (draw -= weight) < 0) ?? operations[0]!;
        history.push({ actor: self, what: name });
        await operation(self);
      }

      // At the end, with every job settled: each lists exactly what is theirs, and finds nothing of anyone else.
      for (const self of actors) await settle(self);
      for (const self of actors) {
        const listed = new Set<string>();
        for (let cursor: string | null = null, first = true; first || cursor; first = false) {
          const page: Answer = await self.api.get(`/v1/memories?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
          expectOwn(self, page, 'final list');
          for (const memory of page.body.data) listed.add(memory.id);
          cursor = page.body.nextCursor;
        }
        expect([...listed].sort(), `seed ${seed}: ${self.name} lists their own memories`).to.deep.equal([...self.memoryIds].sort());
        for (const other of others(self)) {
          for (const body of [{ query: other.marker, strategy: 'direct_lookup' }, { query: `${other.marker} note photo ledger` }, { query: other.marker, mode: 'hybrid' }]) {
            const answer = await self.api.post('mode' in body ? '/v1/memories/search' : '/v1/search', { ...body, options: { limit: 50 } });
            expectOwn(self, answer, `final search for ${other.name}'s word`, body.query);
            expect(answer.body.data.filter((hit: { id: string }) => !self.memoryIds.has(hit.id)), `seed ${seed}`).to.deep.equal([]);
          }
        }
      }
    });
  });
}
