/** Runs `task` over the items with at most `limit` in flight; results keep the items' order. */
export async function mapWithConcurrency<T, R>(items: readonly T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * The promise's value, or a rejection once `ms` have passed without one (the work itself is not cancelled). For reads
 * whose engine may hang during an outage, where a late answer is worth less than knowing it is late.
 */
export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took more than ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One request for many concurrent callers: while one group is in flight, the requests asked meanwhile wait and
 * go together in the next, until none waits. `run` answers a group in the order asked; its failure fails that group.
 */
export class GroupedCalls<Request, Answer> {
  private waiting: Array<{ request: Request; resolve: (answer: Answer) => void; reject: (error: unknown) => void }> = [];
  private running = false;

  constructor(private readonly run: (requests: Request[]) => Promise<Answer[]>) {}

  call(request: Request): Promise<Answer> {
    return new Promise<Answer>((resolve, reject) => {
      this.waiting.push({ request, resolve, reject });
      void this.runWaiting();
    });
  }

  private async runWaiting(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.waiting.length > 0) {
        const group = this.waiting;
        this.waiting = [];
        try {
          const answers = await this.run(group.map(({ request }) => request));
          group.forEach(({ resolve }, i) => resolve(answers[i]!));
        } catch (error) {
          for (const { reject } of group) reject(error);
        }
      }
    } finally {
      this.running = false;
    }
  }
}
