import { expect } from 'chai';
import { countOutcome, type JobView, type Sent } from './outcome.js';
import { planTrials, KILL_TARGETS } from './crash.js';
import { formatWindow, joinWindows, judgeJoin } from './join.js';
import { formatReport } from './report.js';
import { kindOf, memoryText, retryNote, sendAtRate } from './traffic.js';
import { judgeCrash, judgeOutage, passed } from './verdict.js';

const text = (index: number, status: number | null, extra: Partial<Sent> = {}): Sent => ({
  index,
  kind: 'text',
  content: `memory ${index}`,
  status,
  code: status === 202 ? null : status === null ? 'ECONNREFUSED' : 'ENGINE.UNAVAILABLE',
  retryAfter: status === 503 ? '5' : null,
  jobId: status === 202 ? `job_${index}` : null,
  ms: 5,
  duringFault: false,
  ...extra,
});
const done = (...memoryIds: string[]): JobView => ({ status: 'Completed', memoryIds, acceptedAt: 0, updatedAt: 0 });

describe('drill', () => {
  describe('countOutcome', () => {
    it('counts statuses, acceptances and completions, and nothing lost when each job has its memory once', () => {
      const sent = [text(0, 202), text(1, 202), text(2, 503), text(3, null)];
      const jobs = new Map([['job_0', done('m0')], ['job_1', done('m1')]]);
      const counts = countOutcome(sent, jobs, [{ id: 'm0', content: 'memory 0' }, { id: 'm1', content: 'memory 1' }]);
      expect(counts).to.deep.equal({ sent: 4, statuses: { '202': 2, '503': 1, 'no answer': 1 }, accepted: 2, completed: 2, missing: 0, duplicatedByContent: 0, duplicatedByJob: 0, refusedYetStored: 0 });
    });

    it('counts a job that did not complete, a memory its record names but the store lacks, and a text not stored, as missing', () => {
      const sent = [text(0, 202), text(1, 202), text(2, 202)];
      const jobs = new Map<string, JobView | null>([['job_0', { status: 'Processing', memoryIds: [], acceptedAt: 0, updatedAt: 0 }], ['job_1', done('m1')], ['job_2', done('m2')]]);
      const counts = countOutcome(sent, jobs, [{ id: 'm2', content: 'something else' }]);
      expect(counts.completed).to.equal(2);
      expect(counts.missing).to.equal(3);
    });

    it('counts a text stored twice, a memory no accepted job claims, and a refused text that was stored anyway', () => {
      const sent = [text(0, 202), text(1, 503), text(2, 202)];
      const jobs = new Map([['job_0', done('m0')], ['job_2', done('m2')]]);
      const stored = [
        { id: 'm0', content: 'memory 0' },
        { id: 'm0-again', content: 'memory 0' },
        { id: 'm1', content: 'memory 1' },
        { id: 'm2', content: 'memory 2' },
      ];
      const counts = countOutcome(sent, jobs, stored);
      expect(counts.duplicatedByContent).to.equal(1);
      expect(counts.duplicatedByJob).to.equal(2);
      expect(counts.refusedYetStored).to.equal(1);
      expect(counts.missing).to.equal(0);
    });

    it('counts a memory two job records claim as duplicated', () => {
      const sent = [text(0, 202), { ...text(1, 202), content: 'memory 0' }];
      const counts = countOutcome(sent, new Map([['job_0', done('m0')], ['job_1', done('m0')]]), [{ id: 'm0', content: 'memory 0' }]);
      expect(counts.duplicatedByJob).to.equal(1);
    });
  });

  describe('judgeOutage', () => {
    const clean = () => {
      const sent = [text(0, 202), text(1, 503, { duringFault: true })];
      return { sent, counts: countOutcome(sent, new Map([['job_0', done('m0')]]), [{ id: 'm0', content: 'memory 0' }]) };
    };

    it('passes 202s and 503s with Retry-After, nothing lost or doubled, drained in time', () => {
      const { sent, counts } = clean();
      expect(passed(judgeOutage(sent, counts, 12, null))).to.equal(true);
    });

    it('fails a 500, a missing answer, a 503 without Retry-After and a slow drain, each on its own criterion', () => {
      const { counts } = clean();
      const sent = [text(0, 202), text(1, 500), text(2, null), text(3, 503, { retryAfter: null })];
      const failed = judgeOutage(sent, counts, 61, null).filter((criterion) => !criterion.pass);
      expect(failed.map((criterion) => criterion.name)).to.deep.equal(['answers only 202 or 503', 'every 503 carries Retry-After', 'drained within 60 s']);
      expect(failed[0]!.detail).to.equal('other answers: 500×1, no answer×1');
    });

    it('judges the searches of an Elasticsearch outage: a 503 with a code, quickly', () => {
      const { sent, counts } = clean();
      const good = { at: 0, status: 503, code: 'ENGINE.UNAVAILABLE', ms: 40 };
      expect(passed(judgeOutage(sent, counts, 5, [good, good]))).to.equal(true);
      expect(passed(judgeOutage(sent, counts, 5, [good, { ...good, ms: 29_000 }]))).to.equal(false);
      expect(passed(judgeOutage(sent, counts, 5, [good, { at: 0, status: 500, code: 'INTERNAL.ERROR', ms: 10 }]))).to.equal(false);
      expect(passed(judgeOutage(sent, counts, 5, []))).to.equal(false);
    });
  });

  it('judgeCrash: every memory accepted and completed, none lost or doubled', () => {
    const sent = [text(0, 202), text(1, 202)];
    const jobs = new Map([['job_0', done('m0')], ['job_1', done('m1')]]);
    const counts = countOutcome(sent, jobs, [{ id: 'm0', content: 'memory 0' }, { id: 'm1', content: 'memory 1' }]);
    expect(passed(judgeCrash(counts, 2, 0))).to.equal(true);
    expect(passed(judgeCrash(counts, 3, 1))).to.equal(false);
  });

  describe('join drill', () => {
    const at = (acceptedAt: number, updatedAt: number, status = 'Completed'): JobView => ({ status, memoryIds: [], acceptedAt, updatedAt });
    const search = (atMs: number, ms: number, status: number | null = 200) => ({ at: atMs, status, code: null, ms });

    it('joinWindows counts completions, the backlog and search latency before the join, while joined, after the leave and in the drain', () => {
      const jobs = new Map<string, JobView | null>([
        ['a', at(0, 500)],
        ['b', at(100, 1_500)],
        ['c', at(900, 2_500)],
        ['d', at(1_000, 2_600)],
        ['e', at(2_100, 3_000)],
        ['f', null],
      ]);
      const searches = [search(100, 10), search(1_200, 40), search(1_300, 60), search(1_400, 5_000, null), search(2_900, 20)];
      const windows = joinWindows(jobs, searches, { start: 0, joined: 1_000, left: 2_000, sendingEnded: 2_550, end: 3_000 });
      expect(windows.map((w) => [w.name, w.seconds, w.completed, w.backlogAtEnd, w.searches])).to.deep.equal([
        ['before', 1, 1, 3, 1],
        ['joined', 1, 1, 2, 3],
        ['after', 0.55, 1, 2, 0],
        ['drain', 0.45, 2, 0, 1],
      ]);
      expect(windows[1]!.completedPerS).to.equal(1);
      expect([windows[1]!.searchP50Ms, windows[1]!.searchP95Ms], 'answered searches only').to.deep.equal([40, 60]);
      expect(formatWindow(windows[3]!)).to.equal('drain  0.5 s: 2 completed (4.4/s), backlog at end 0; 1 searches, p50 / p95 20 / 20 ms');
      const early = joinWindows(jobs, searches, { start: 0, joined: 1_000, left: 2_000, sendingEnded: 1_500, end: 3_000 });
      expect(early.map((w) => [w.name, w.seconds]), 'sending ended before the leave: no after window').to.deep.equal([['before', 1], ['joined', 1], ['after', 0], ['drain', 1]]);
    });

    it('judgeJoin asks what a crash drill asks, that the second process took part, and that every search was answered', () => {
      const sent = [text(0, 202), text(1, 202)];
      const counts = countOutcome(sent, new Map([['job_0', done('m0')], ['job_1', done('m1')]]), [{ id: 'm0', content: 'memory 0' }, { id: 'm1', content: 'memory 1' }]);
      const answered = [search(0, 10), search(1, 12)];
      expect(passed(judgeJoin(counts, 2, 0, 'enricher', 40, answered))).to.equal(true);
      const idle = judgeJoin(counts, 2, 0, 'search', 0, answered).filter((criterion) => !criterion.pass);
      expect(idle.map((criterion) => criterion.name)).to.deep.equal(['the second search app answered searches']);
      const refused = judgeJoin(counts, 2, 0, 'search', 3, [...answered, search(2, 4, 503)]).filter((criterion) => !criterion.pass);
      expect(refused.map((criterion) => `${criterion.name}: ${criterion.detail}`)).to.deep.equal(['every search answered 200: 2/3']);
      expect(passed(judgeJoin(counts, 2, 0, 'enricher', 5, []))).to.equal(false);
    });
  });

  it('planTrials shares the memories out and draws the same targets and moments from the same seed', () => {
    const plans = planTrials('random', 3, 500, 10, 42);
    expect(plans.map((plan) => plan.memories)).to.deep.equal([167, 167, 166]);
    expect(planTrials('random', 3, 500, 10, 42)).to.deep.equal(plans);
    for (const plan of plans) {
      expect(KILL_TARGETS).to.include(plan.target);
      expect(plan.killAtS).to.be.within(0, plan.memories / 10);
    }
    expect(new Set(planTrials('random', 40, 400, 10, 7).map((plan) => plan.target)).size).to.be.greaterThan(3);
    expect(planTrials('edge', 2, 10, 10, 1).map((plan) => plan.target)).to.deep.equal(['edge', 'edge']);
  });

  it('memoryText is unique per run, phase and index; kindOf mixes files in only when asked', () => {
    expect(memoryText('r1', 'kafka', 1)).to.not.equal(memoryText('r1', 'kafka', 2));
    expect(memoryText('r1', 'kafka', 1)).to.not.equal(memoryText('r2', 'kafka', 1));
    expect([0, 1, 2, 3].map((i) => kindOf(i, true))).to.deep.equal(['text', 'image', 'pdf', 'text']);
    expect([0, 1, 2].map((i) => kindOf(i, false))).to.deep.equal(['text', 'text', 'text']);
  });

  it('retryNote counts the retried answers by kind, most frequent first', () => {
    expect(retryNote([])).to.deep.equal([]);
    expect(retryNote(['503 SERVICE.OVERLOADED', 'no answer', '503 SERVICE.OVERLOADED'])).to.deep.equal(['3 retries (503 SERVICE.OVERLOADED×2, no answer×1)']);
  });

  it('sendAtRate sends on a schedule, up to a limit, and waits for the calls in flight', async () => {
    const started = performance.now();
    const calls: number[] = [];
    const sender = sendAtRate(50, async (index) => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      calls.push(index);
    }, 10);
    await sender.done;
    const elapsed = performance.now() - started;
    expect(calls.sort((a, b) => a - b)).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(elapsed).to.be.within(180, 1_500);
  });

  it('formatReport prints a row per phase, each failed criterion, and the overall verdict', () => {
    const sent = [text(0, 202), text(1, 500)];
    const counts = countOutcome(sent, new Map([['job_0', done('m0')]]), [{ id: 'm0', content: 'memory 0' }]);
    const lines = formatReport([{ name: 'kafka', counts, drainS: 3.25, criteria: judgeOutage(sent, counts, 3.25, null), notes: [] }]);
    expect(lines[0]).to.match(/^phase\s+sent\s+statuses\s+accepted/);
    expect(lines[2]).to.match(/^kafka\s+2\s+202:1 500:1\s+1\s+1\s+0\s+0\s+0\s+3\.3\s+FAIL$/);
    expect(lines).to.include('  FAIL  answers only 202 or 503 (other answers: 500×1)');
    expect(lines.at(-1)).to.equal('FAIL: 1 of 1 failed');
  });
});
