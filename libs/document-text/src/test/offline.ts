/**
 * Runs `body` with fetch() replaced by one that fails the call, and returns what it was asked for: pdfjs must
 * read its fonts, CMaps and wasm from disk, never through the network.
 */
export async function withoutNetwork<T>(body: () => Promise<T>): Promise<{ result: T; fetches: string[] }> {
  const original = globalThis.fetch;
  const fetches: string[] = [];
  globalThis.fetch = async (input: string | URL | Request) => {
    fetches.push(String(input instanceof Request ? input.url : input));
    throw new Error('network access is not allowed in document-text');
  };
  try {
    return { result: await body(), fetches };
  } finally {
    globalThis.fetch = original;
  }
}

/** Runs `body` collecting what pdfjs prints (console.warn for warnings, console.log for infos) instead of printing it. */
export async function withPdfjsMessages<T>(body: () => Promise<T>): Promise<{ result: T; messages: string[] }> {
  const { warn, log } = console;
  const messages: string[] = [];
  console.warn = console.log = (...args: unknown[]) => void messages.push(args.join(' '));
  try {
    return { result: await body(), messages };
  } finally {
    Object.assign(console, { warn, log });
  }
}
