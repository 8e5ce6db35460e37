// Readiness checks for engines: a TCP port that accepts, an HTTP URL that answers 2xx.
import { connect } from 'node:net';

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function portAccepts(host, port, timeoutMs = 1000) {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export async function httpOk(url, timeoutMs = 2000) {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * Polls `check` until it resolves true. Prints a dot line every ~10 s so a slow start shows progress, and gives up
 * early when `stillRunning` says the process died (its log then says why).
 */
export async function waitUntil(check, { label, timeoutMs, stillRunning = () => true, intervalMs = 500 }) {
  const started = Date.now();
  let lastReport = started;
  while (Date.now() - started < timeoutMs) {
    if (await check()) return;
    if (!stillRunning()) throw new Error(`${label}: the process exited before it was ready`);
    if (Date.now() - lastReport >= 10_000) {
      lastReport = Date.now();
      console.log(`  ${label}: still starting (${Math.round((lastReport - started) / 1000)} s)`);
    }
    await sleep(intervalMs);
  }
  throw new Error(`${label}: not ready after ${Math.round(timeoutMs / 1000)} s`);
}
