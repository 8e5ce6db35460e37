import { randomBytes } from 'node:crypto';

/** Polls until `condition` holds, failing with `what` after timeoutMs. */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs}ms waiting for ${what}`);
    await sleep(5);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A name no other test (or earlier run against a shared engine) has used: topics, groups, subjects. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
}

/** Asserts that `task` rejects with a MemoryServiceError-like error carrying `code`; returns the error. */
export async function expectCode(task: Promise<unknown> | (() => Promise<unknown>), code: string): Promise<Error & { code: string }> {
  try {
    await (typeof task === 'function' ? task() : task);
  } catch (error) {
    const actual = (error as { code?: unknown }).code;
    if (actual !== code) throw new Error(`expected error code ${code}, got ${String(actual)}: ${(error as Error).message}`, { cause: error });
    return error as Error & { code: string };
  }
  throw new Error(`expected a rejection with code ${code}, but it resolved`);
}

/** "<status> <code>" of the RequestError a synchronous validator throws, for specs that list many refusals. */
export function requestErrorOf(validate: () => unknown): string {
  try {
    validate();
  } catch (error) {
    const { status, code } = error as { status?: unknown; code?: unknown };
    if (typeof status !== 'number' || typeof code !== 'string') throw new Error(`expected a RequestError, got ${String(error)}`, { cause: error });
    return `${status} ${code}`;
  }
  throw new Error('expected a RequestError, but it returned');
}
