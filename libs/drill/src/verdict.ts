import { NO_ANSWER, statusKey, type Counts, type Sent } from './outcome.js';

/** One pass/fail line of a drill's verdict. */
export interface Criterion {
  name: string;
  pass: boolean;
  detail: string;
}

/** A search sent while Elasticsearch was stopped, or while a process joined or left. */
export interface OutageSearch {
  /** When it was sent (epoch ms). */
  at: number;
  status: number | null;
  code: string | null;
  ms: number;
}

export const DRAIN_LIMIT_S = 60;
/** A search during an outage must answer within this: a refusal, not a hang. */
export const SEARCH_ANSWER_LIMIT_MS = 5_000;

const list = (entries: Record<string, number>) =>
  Object.entries(entries)
    .map(([key, n]) => `${key}×${n}`)
    .join(', ') || 'none';

/**
 * The verdict of an outage drill (issue 19, part 1): only 202 or 503 with Retry-After, never another 5xx (no answer
 * at all counts against it); 0 missing; 0 duplicated; drained within 60 s; searches during an Elasticsearch outage
 * refused with a stable code, quickly.
 */
export function judgeOutage(sent: readonly Sent[], counts: Counts, drainS: number | null, searches: readonly OutageSearch[] | null): Criterion[] {
  const others: Record<string, number> = {};
  for (const request of sent) {
    const key = statusKey(request);
    if (key !== '202' && key !== '503') others[key] = (others[key] ?? 0) + 1;
  }
  const refused = sent.filter((request) => request.status === 503);
  const withoutRetryAfter = refused.filter((request) => !request.retryAfter).length;
  const criteria: Criterion[] = [
    { name: 'answers only 202 or 503', pass: Object.keys(others).length === 0, detail: `other answers: ${list(others)}` },
    { name: 'every 503 carries Retry-After', pass: withoutRetryAfter === 0, detail: `${refused.length - withoutRetryAfter}/${refused.length} do` },
    { name: 'something was accepted', pass: counts.accepted > 0, detail: `${counts.accepted} accepted` },
    ...lossCriteria(counts),
    { name: `drained within ${DRAIN_LIMIT_S} s`, pass: drainS !== null && drainS <= DRAIN_LIMIT_S, detail: drainS === null ? 'not drained' : `${drainS.toFixed(1)} s after the restart` },
  ];
  if (searches) {
    const good = searches.filter((search) => search.status === 503 && search.code && search.ms <= SEARCH_ANSWER_LIMIT_MS);
    const times = searches.map((search) => search.ms).sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)] ?? 0;
    const slowest = times.at(-1) ?? 0;
    const answers: Record<string, number> = {};
    for (const search of searches) {
      const key = `${search.status ?? NO_ANSWER}${search.code ? ` ${search.code}` : ''}`;
      answers[key] = (answers[key] ?? 0) + 1;
    }
    criteria.push({
      name: `searches while down: 503 with a code within ${SEARCH_ANSWER_LIMIT_MS / 1000} s`,
      pass: searches.length > 0 && good.length === searches.length,
      detail: `${good.length}/${searches.length} (${list(answers)}; median ${Math.round(median)} ms, slowest ${Math.round(slowest)} ms)`,
    });
  }
  return criteria;
}

/**
 * The verdict of a crash drill (issue 19, part 2): every memory accepted (the client retries with its
 * Idempotency-Key, as the SDK does), every accepted job Completed, 0 lost, 0 duplicated.
 */
export function judgeCrash(counts: Counts, memories: number, unaccepted: number): Criterion[] {
  return [
    { name: 'every memory accepted (with retries)', pass: unaccepted === 0 && counts.accepted === memories, detail: `${counts.accepted}/${memories} accepted` },
    { name: 'every accepted job Completed', pass: counts.completed === counts.accepted, detail: `${counts.completed}/${counts.accepted}` },
    ...lossCriteria(counts),
  ];
}

function lossCriteria(counts: Counts): Criterion[] {
  return [
    { name: '0 missing', pass: counts.missing === 0, detail: `${counts.missing} missing` },
    {
      name: '0 duplicated',
      pass: counts.duplicatedByContent === 0 && counts.duplicatedByJob === 0 && counts.refusedYetStored === 0,
      detail: `${counts.duplicatedByContent} by content, ${counts.duplicatedByJob} by job record, ${counts.refusedYetStored} refused yet stored`,
    },
  ];
}

export const passed = (criteria: readonly Criterion[]): boolean => criteria.every((criterion) => criterion.pass);
