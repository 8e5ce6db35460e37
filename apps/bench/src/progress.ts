export type Print = (line: string) => void;

/**
 * Progress lines for a long step: at most one every few seconds, each with the count, the share done and the
 * rate so far, and a last line when it ends. Lines, not a redrawn bar, so the output reads the same in a log.
 */
export function progress(label: string, total: number, print: Print, unit = '', everyMs = 3_000) {
  const started = performance.now();
  let lastPrinted = started;
  const line = (done: number) => {
    const seconds = (performance.now() - started) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    return `  ${label} ${done}/${total} (${total ? Math.floor((100 * done) / total) : 100}%, ${rate.toFixed(1)}${unit}/s, ${seconds.toFixed(0)} s)`;
  };
  return {
    update(done: number): void {
      const now = performance.now();
      if (now - lastPrinted < everyMs) return;
      lastPrinted = now;
      print(line(done));
    },
    finish(done: number): number {
      print(line(done));
      return (performance.now() - started) / 1000;
    },
  };
}
