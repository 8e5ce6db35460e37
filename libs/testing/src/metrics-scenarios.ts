import { expect } from 'chai';
import { sampleSum } from '@memory/metrics';
import { randomBytes } from 'node:crypto';
import { caller, waitForJob, type HasUrl } from './http-caller.js';
import { TEST_KEYS } from './service-process.js';
import { waitFor } from './wait-for.js';

/** A running service as the metrics scenarios see it: where to call it, every process's /metrics, and their logs. */
export interface MeteredService extends HasUrl {
  /** The base URL of every process of the service (memoryd alone; the edge, the search app and each worker). */
  processUrls(): string[];
  /** Everything the processes wrote so far (they run with MEMORY_LOG_LEVEL=debug). */
  logs(): string;
}

/** The stages an ingested text passes through, each of which must count it and log it under its request id. */
const TEXT_STAGES = ['temporal-resolver', 'enricher', 'dual-writer', 'centroid-calibrator', 'job-tracker'];

/**
 * GET /metrics and X-Request-Id on a real service: the counters move after an ingest and a search, the request id
 * comes back on the answer, in error bodies and on the job, and every stage's log line about the record names it.
 */
export function describeMetricsScenarios(title: string, service: MeteredService): void {
  describe(`metrics and request ids: ${title}`, function () {
    this.timeout(180_000);
    const endUser = `metrics-user-${randomBytes(3).toString('hex')}`;
    const scrape = () =>
      Promise.all(
        service.processUrls().map(async (url) => {
          const res = await fetch(`${url}/metrics`);
          expect(res.status, `${url}/metrics`).to.equal(200);
          expect(res.headers.get('content-type')).to.match(/^text\/plain/);
          return res.text();
        }),
      );

    it('counts an ingest and a search, and the record in every stage, and names no tenant or end user', async () => {
      const api = caller(service, TEST_KEYS.acme, endUser);
      const before = await scrape();
      const requestId = `e2e-${randomBytes(6).toString('hex')}`;
      const ingest = await fetch(`${service.url}/v1/memory`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_KEYS.acme}`, 'x-end-user-id': endUser, 'content-type': 'application/json', 'x-request-id': requestId },
        body: JSON.stringify({ source: { type: 'text', content: 'I repaint the garden shed every spring' } }),
      });
      expect(ingest.status).to.equal(202);
      expect(ingest.headers.get('x-request-id'), 'the sent id comes back').to.equal(requestId);
      const { jobId } = (await ingest.json()) as { jobId: string };
      const job = await waitForJob(api, jobId);
      expect(job.status).to.equal('Completed');
      expect(job.requestId, 'the job record keeps the request id').to.equal(requestId);
      const search = await api.post('/v1/search', { query: 'garden shed' });
      expect(search.status).to.equal(200);

      const grew = (after: string[], name: string, labels: Record<string, string> = {}) => sampleSum(after, name, labels) - sampleSum(before, name, labels);
      let after: string[] = [];
      // The job tracker counts the last report after the job reads Completed, and Elasticsearch counts after a refresh.
      await waitFor(async () => {
        after = await scrape();
        return TEXT_STAGES.every((stage) => grew(after, 'memory_stage_records_total', { stage, outcome: 'processed' }) >= 1) && sampleSum(after, 'memory_jobs', { state: 'Completed' }) >= 1;
      }, 'every stage to count the record and the job store to count the job', 30_000);
      expect(grew(after, 'memory_http_requests_total', { route: '/v1/memory', method: 'POST', status: '202' })).to.equal(1);
      expect(grew(after, 'memory_http_request_duration_seconds_count', { route: '/v1/memory', method: 'POST' })).to.equal(1);
      // The edge relays a search to the search app, which counts it too.
      expect(grew(after, 'memory_http_requests_total', { route: '/v1/search', method: 'POST', status: '200' })).to.be.at.least(1);
      expect(grew(after, 'memory_http_requests_total', { route: '/v1/jobs/{jobId}', method: 'GET', status: '200' })).to.be.at.least(1);
      expect(grew(after, 'memory_embedding_batch_size_count'), 'the memory and the query embedded').to.be.at.least(2);
      expect(grew(after, 'memory_embedding_duration_seconds_count')).to.be.at.least(2);
      for (const stage of TEXT_STAGES) expect(grew(after, 'memory_stage_duration_seconds_count', { stage }), stage).to.be.at.least(1);
      expect(after.join('\n')).to.match(/^memory_consumer_lag\{group="temporal-resolver",topic="[^"]+",partition="0"\} \d+$/m);
      expect(after.join('\n')).to.match(/^memory_dead_letters_total\{stage="enricher"\} \d+$/m);
      expect(after.join('\n')).to.match(/^process_resident_memory_bytes \d+/m);
      for (const id of ['acme', endUser, jobId, requestId]) expect(after.join('\n'), `no ${id} in the metrics`).to.not.include(id);

      // Every stage's line about the record names the request, in whichever process the stage runs.
      const stagesLogged = new Set<string>();
      for (const line of service.logs().split('\n')) {
        const json = line.slice(line.indexOf('{'));
        if (!json.startsWith('{')) continue;
        let entry: { requestId?: string; stage?: string; jobId?: string };
        try {
          entry = JSON.parse(json) as typeof entry;
        } catch {
          continue;
        }
        if (entry.jobId === jobId && entry.stage) {
          expect(entry.requestId, `the ${entry.stage} line about ${jobId}`).to.equal(requestId);
          stagesLogged.add(entry.stage);
        }
      }
      expect([...stagesLogged]).to.include.members(TEXT_STAGES);
    });

    it('replaces an id that is not one by a generated id, and names it in an error body', async () => {
      for (const sent of ['has spaces', 'x'.repeat(129), 'na%C3%AFve', '<script>', '', undefined]) {
        const res = await fetch(`${service.url}/v1/jobs/job_0_nobody`, {
          headers: { authorization: `Bearer ${TEST_KEYS.acme}`, 'x-end-user-id': endUser, ...(sent === undefined ? {} : { 'x-request-id': sent }) },
        });
        const answered = res.headers.get('x-request-id');
        expect(answered, `for ${sent}`).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
        const body = (await res.json()) as { error: { code: string; requestId: string } };
        expect(res.status).to.equal(404);
        expect(body.error.code).to.equal('JOB.NOT_FOUND');
        expect(body.error.requestId).to.equal(answered);
      }
      const kept = await fetch(`${service.url}/v1/search`, { method: 'POST', headers: { 'x-request-id': 'client:trace/1+a=b' } });
      expect(kept.status).to.equal(401);
      expect(kept.headers.get('x-request-id')).to.equal('client:trace/1+a=b');
      expect(((await kept.json()) as { error: { requestId: string } }).error.requestId).to.equal('client:trace/1+a=b');
    });
  });
}
