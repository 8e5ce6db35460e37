import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** The HTTP header a request id comes in and goes back in. */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * What a client may send as its request id: 1-128 characters a log line, a header and a URL carry unescaped
 * (UUIDs, ULIDs, base64 and W3C trace ids all fit). Anything else is replaced by a generated id rather than
 * refused: a tracing header is no reason to fail a request, and the answer says which id was used.
 */
const REQUEST_ID = /^[A-Za-z0-9._:+/=-]{1,128}$/;

export function isRequestId(value: unknown): value is string {
  return typeof value === 'string' && REQUEST_ID.test(value);
}

/** The client's request id when it is one, else a new one. */
export function requestIdOf(sent: string | string[] | undefined): string {
  return isRequestId(sent) ? sent : randomUUID();
}

const context = new AsyncLocalStorage<{ requestId: string; clientGone: (() => boolean) | undefined }>();

/**
 * Runs `work` as part of one request (or, with undefined, of none): the logger and the code that publishes a job
 * read the id from here, so it needs no parameter through every function between the route and the log.
 * `clientGone` says whether the client has closed its connection before the answer.
 */
export function withRequestId<T>(requestId: string | undefined, work: () => T, clientGone?: () => boolean): T {
  return requestId === undefined ? context.exit(work) : context.run({ requestId, clientGone }, work);
}

/** The id of the request being served, if any. */
export function currentRequestId(): string | undefined {
  return context.getStore()?.requestId;
}

/** Whether the client of the request being served has closed its connection without waiting for the answer. */
export function clientGone(): boolean {
  return context.getStore()?.clientGone?.() ?? false;
}
