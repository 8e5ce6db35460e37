import { backoffDelay } from '@memory/platform';
import { call, sleep, textField, type DrillApi, type Reply } from './client.js';
import { NO_ANSWER, type MemoryKind, type Sent } from './outcome.js';

/** Images and PDFs for a MinIO drill, each different from the others (a repeat could be deduplicated). */
export interface DrillFiles {
  image(index: number): Promise<Buffer>;
  pdf(index: number): Promise<Buffer>;
}

const SUBJECTS = ['the heron', 'my sister', 'the night train', 'our landlord', 'the old piano', 'a red kite', 'the bakery', 'Professor Lind'];
const ACTIONS = ['was seen near', 'talked about', 'arrived late at', 'was painted beside', 'moved closer to', 'was missing from'];
const PLACES = ['the harbour', 'the library', 'the garden shed', 'the station', 'the hill farm', 'the market square'];

/** A text memory nobody else sends: the run, the phase and the index make it unique, so the store can be searched for it. */
export function memoryText(runId: string, phase: string, index: number): string {
  const pick = <T>(list: readonly T[], salt: number) => list[(index * 7 + salt) % list.length]!;
  return `Drill note ${runId}-${phase}-${index}: ${pick(SUBJECTS, 1)} ${pick(ACTIONS, 3)} ${pick(PLACES, 5)}.`;
}

/** What the index-th request of a phase sends: text, or in a MinIO drill every third an image and every third a PDF. */
export function kindOf(index: number, withFiles: boolean): MemoryKind {
  if (!withFiles) return 'text';
  return (['text', 'image', 'pdf'] as const)[index % 3]!;
}

/** Sends one memory and answers what came back; the Idempotency-Key lets a retry be answered with the first job. */
export async function ingest(api: DrillApi, endUserId: string, kind: MemoryKind, content: string, index: number, files: DrillFiles | null, idempotencyKey: string): Promise<Reply> {
  const headers = { 'idempotency-key': idempotencyKey };
  if (kind === 'text') return call(api, 'POST', '/v1/memory', { endUserId, headers, json: { source: { type: 'text', content } } });
  if (!files) throw new Error('images and PDFs need files');
  if (kind === 'image') {
    const image = await files.image(index);
    return call(api, 'POST', '/v1/memory/image', { endUserId, headers, json: { imageData: image.toString('base64'), userContext: content } });
  }
  const form = new FormData();
  form.append('file', new Blob([await files.pdf(index)], { type: 'application/pdf' }), `drill-${index}.pdf`);
  return call(api, 'POST', '/v1/ingest/document/upload', { endUserId, headers, form });
}

/**
 * How long a client keeps retrying one memory (with its Idempotency-Key) before counting it lost: past the 60 s for
 * which the claim of a request whose process died keeps answering 409 IDEMPOTENCY.IN_PROGRESS.
 */
const GIVE_UP_MS = 150_000;

/**
 * Sends one text memory as a careful client does: the same Idempotency-Key on every retry, retrying a missing answer,
 * a 5xx, a 429 or a 409 IDEMPOTENCY.IN_PROGRESS with backoff. `faultNow` says whether a fault is under way; the
 * answer's `duringFault` is whether any attempt saw one, and `retried` the answers that were sent again.
 */
export async function ingestCarefully(api: DrillApi, endUserId: string, content: string, index: number, idempotencyKey: string, random: () => number, faultNow: () => boolean): Promise<{ sent: Sent; retried: string[] }> {
  const giveUpAt = Date.now() + GIVE_UP_MS;
  let sawFault = faultNow();
  const retried: string[] = [];
  for (let attempt = 0; ; attempt++) {
    const reply: Reply = await ingest(api, endUserId, 'text', content, index, null, idempotencyKey);
    sawFault ||= faultNow();
    // What the API asks a client to send again: no answer, a 5xx, a 429, and a 409 for a key still in progress.
    const again = reply.status === null || reply.status >= 500 || reply.status === 429 || reply.code === 'IDEMPOTENCY.IN_PROGRESS';
    if (!again || Date.now() > giveUpAt) return { sent: sentFrom(index, 'text', content, reply, sawFault), retried };
    retried.push(`${reply.status ?? NO_ANSWER}${reply.code ? ` ${reply.code}` : ''}`);
    await sleep(Math.max(100, backoffDelay(attempt, { initialDelayMs: 200, maxDelayMs: 5_000, factor: 2 }, random)));
  }
}

/** The retried answers counted by kind, for a report's note: "12 retries (503 SERVICE.OVERLOADED×10, no answer×2)". */
export function retryNote(retried: readonly string[]): string[] {
  if (retried.length === 0) return [];
  const counts = new Map<string, number>();
  for (const answer of retried) counts.set(answer, (counts.get(answer) ?? 0) + 1);
  const kinds = [...counts].sort((a, b) => b[1] - a[1]).map(([answer, n]) => `${answer}×${n}`);
  return [`${retried.length} retries (${kinds.join(', ')})`];
}

export function sentFrom(index: number, kind: MemoryKind, content: string, reply: Reply, duringFault: boolean): Sent {
  return {
    index,
    kind,
    content: kind === 'text' ? content : null,
    status: reply.status,
    code: reply.code,
    retryAfter: reply.retryAfter,
    jobId: reply.status === 202 ? textField(reply.body, 'jobId') : null,
    ms: reply.ms,
    duringFault,
  };
}

/**
 * Calls `send(index)` `rate` times a second on a fixed schedule (open loop: a slow answer does not slow the
 * sending, as real clients do not wait for each other) until stop() or `limit` calls; stop() waits for the calls
 * in flight.
 */
export function sendAtRate(rate: number, send: (index: number) => Promise<void>, limit = Infinity): { stop(): Promise<void>; done: Promise<void>; count(): number } {
  const inFlight = new Set<Promise<void>>();
  const started = performance.now();
  let index = 0;
  let stopped = false;
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const tick = () => {
    if (stopped || index >= limit) {
      stopped = true;
      void Promise.all(inFlight).then(finish);
      return;
    }
    const call = send(index++).finally(() => inFlight.delete(call));
    inFlight.add(call);
    const next = started + (index * 1000) / rate;
    setTimeout(tick, Math.max(0, next - performance.now()));
  };
  tick();
  return {
    count: () => index,
    done,
    async stop() {
      stopped = true;
      await Promise.all(inFlight);
      finish();
    },
  };
}
