import { ServiceStartError } from './service.js';

/**
 * Runs a bench command's main and exits with its code; a failure prints what to do (a service that did not start)
 * or the stack, and exits 1.
 */
export function runMain(main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      if (error instanceof ServiceStartError) process.stderr.write(`${error.message}\n`);
      else process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
