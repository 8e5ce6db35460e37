import { expect } from 'chai';
import { Histogram, Registry } from 'prom-client';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { metricsExposition, observeJobs, observeLag, scrapeSourceFailures, timed } from './metrics.js';

describe('metrics', () => {
  it("still sees the event loop held up, at ten samples a second: a 300 ms block shows in the lag's maximum", async () => {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const blockedUntil = Date.now() + 300;
    while (Date.now() < blockedUntil) {
      // Holding the event loop, as a slow synchronous step would.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
    const max = /^nodejs_eventloop_lag_max_seconds (\S+)$/m.exec((await metricsExposition()).text)?.[1];
    expect(Number(max)).to.be.above(0.2);
  });

  it('reads lag and job counts from the sources registered at scrape time, and stops when one is removed', async () => {
    const removeLag = observeLag(async () => [{ group: 'spec-group', topic: 'spec.topic', partition: 3, lag: 7 }]);
    const removeJobs = observeJobs(async () => ({ Failed: 2 }));
    let text = (await metricsExposition()).text;
    expect(text).to.include('memory_consumer_lag{group="spec-group",topic="spec.topic",partition="3"} 7');
    expect(text).to.include('memory_jobs{state="Failed"} 2');
    removeLag();
    removeJobs();
    text = (await metricsExposition()).text;
    expect(text).to.not.include('spec-group');
    expect(text).to.not.include('memory_jobs{state="Failed"}');
  });

  it('answers without the series of a source that fails or hangs, and counts it', async () => {
    const failures = async (source: string) => (await scrapeSourceFailures.get()).values.find((v) => v.labels.source === source)?.value ?? 0;
    const before = { lag: await failures('consumer_lag'), jobs: await failures('jobs') };
    const removeLag = observeLag(async () => Promise.reject(new Error('kafka down')));
    const removeJobs = observeJobs(() => new Promise(() => {}));
    const started = Date.now();
    const { text } = await metricsExposition();
    removeLag();
    removeJobs();
    expect(Date.now() - started).to.be.below(4_500);
    expect(text).to.include('memory_http_requests_total');
    expect(await failures('consumer_lag')).to.equal(before.lag + 1);
    expect(await failures('jobs')).to.equal(before.jobs + 1);
  });

  it('reads the live heap after a full collection: the garbage made before it is not counted', async () => {
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    const liveBytes = async () => Number(/^memory_heap_live_bytes (\d+)$/m.exec((await metricsExposition()).text)?.[1]);
    let garbage: unknown[] | null = Array.from({ length: 200_000 }, (_, i) => ({ i, text: `garbage ${i}` }));
    collect();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const withGarbage = await liveBytes();
    garbage = null;
    collect();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const withoutGarbage = await liveBytes();
    expect(garbage).to.equal(null);
    expect(withGarbage - withoutGarbage).to.be.above(10_000_000);
  });

  it('times a call that throws as well as one that resolves', async () => {
    const histogram = new Histogram({ name: 'spec_seconds', help: 'spec', labelNames: ['k'], registers: [new Registry()] });
    await timed(histogram, { k: 'a' }, async () => 1);
    await timed(histogram, { k: 'a' }, async () => Promise.reject(new Error('no'))).catch(() => undefined);
    const count = (await histogram.get()).values.find((v) => v.metricName === 'spec_seconds_count');
    expect(count?.value).to.equal(2);
  });

  it('exports the default process metrics in the Prometheus text format', async () => {
    const { contentType, text } = await metricsExposition();
    expect(contentType).to.match(/^text\/plain; version=0\.0\.4/);
    expect(text).to.match(/^process_resident_memory_bytes \d+/m);
    expect(text).to.include('# TYPE memory_http_requests_total counter');
  });
});
