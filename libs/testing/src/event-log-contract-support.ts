import type { EventLog, LogRecord, OutgoingRecord } from '@memory/ports';

/** What an adapter's spec hands the event log contract for each test. */
export interface EventLogHarness {
  log: EventLog;
  /** Opens the same log again, as a restarted process would; the suite has closed the previous instance first. */
  reopen(): Promise<EventLog>;
  /** Removes what the test left behind (temp dirs, topics); the suite has closed the current instance first. */
  cleanup(): Promise<void>;
  /**
   * How a separate process opens the same log, for the kill -9 test: `module` exports `exportName`, called with
   * `options`, returning an EventLog (or a promise of one). Without it that test is skipped, saying why.
   */
  childProcess?: { module: string; exportName: string; options: unknown };
}

/** Per-test state shared with the split-out parts of the suite. */
export interface EventLogContext {
  readonly log: EventLog;
  readonly harness: EventLogHarness;
  /** Closes the current instance and opens the same log again. */
  restart(): Promise<EventLog>;
  /** Closes the current instance (e.g. to let another process open the log). */
  closeCurrent(): Promise<void>;
  /** Opens the same log again after closeCurrent. */
  reopen(): Promise<EventLog>;
  /** A fresh topic with this many partitions. */
  topic(partitions: number): Promise<string>;
}

export function records(n: number, make: (i: number) => OutgoingRecord): OutgoingRecord[] {
  return Array.from({ length: n }, (_, i) => make(i));
}

/** Every record of a topic, partition by partition. */
export async function readAll(log: EventLog, topic: string): Promise<LogRecord[]> {
  const out: LogRecord[] = [];
  for (let partition = 0; partition < (await log.partitionsOf(topic)); partition++) {
    for (let from = 0; ; ) {
      const page = await log.read(topic, partition, from, 500);
      if (page.length === 0) break;
      out.push(...page);
      from = page[page.length - 1]!.offset + 1;
    }
  }
  return out;
}
