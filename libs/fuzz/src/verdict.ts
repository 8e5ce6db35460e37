import type { WireOutcome, WireResponse } from './http-wire.js';

/** A stable error code as the service writes them: upper-case words joined by dots, e.g. REQUEST.INVALID_JSON. */
const STABLE_CODE = /^[A-Z][A-Z0-9_]*(\.[A-Z0-9_]+)+$/;

/** The error body's code, or null when the answer has no {error:{code,message}} JSON body with a stable code. */
export function errorCodeOf(response: WireResponse): string | null {
  if (!/application\/json/i.test(response.headers['content-type'] ?? '')) return null;
  try {
    const body = JSON.parse(response.body.toString('utf8')) as { error?: { code?: unknown; message?: unknown } };
    const code = body?.error?.code;
    return typeof code === 'string' && STABLE_CODE.test(code) && typeof body.error?.message === 'string' ? code : null;
  } catch {
    return null;
  }
}

/** How one answer is counted, and why it fails the run when it does. */
export interface Judged {
  /** "400 REQUEST.INVALID_JSON", "200", "no answer (cut)", ... */
  label: string;
  failure: string | null;
}

/**
 * The rule of the run: never a 5xx; every 4xx has the error body with a stable code (and a 503, were one to come,
 * Retry-After); a request sent whole is answered in time; a request cut on purpose may go unanswered.
 */
export function judge(outcome: WireOutcome, cut: boolean): Judged {
  if (outcome.kind === 'timeout') return { label: 'no answer (timeout)', failure: `no answer in ${outcome.ms} ms` };
  if (outcome.kind === 'closed') {
    return cut ? { label: 'no answer (cut)', failure: null } : { label: 'no answer (closed)', failure: `the connection closed without an answer${outcome.error ? ` (${outcome.error})` : ''}` };
  }
  const { status } = outcome.response;
  const code = status >= 400 ? errorCodeOf(outcome.response) : null;
  const label = code ? `${status} ${code}` : String(status);
  if (status >= 500) return { label, failure: `answered ${status}${code ? ` ${code}` : ''}` };
  if (status >= 400 && !code) return { label: `${status} (no error body)`, failure: `answered ${status} without the {error:{code,message}} body` };
  return { label, failure: null };
}
