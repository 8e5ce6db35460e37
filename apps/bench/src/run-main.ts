import { UsageError } from './args.js';
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

/**
 * A bench command's options from its command line: the options, or the exit code when there is nothing to run
 * (0 after printing the usage for --help, 2 after a usage error with the usage).
 */
export function commandOptions<T>(parse: () => T | null, usage: string): T | number {
  let options: T | null;
  try {
    options = parse();
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n\n${usage}\n`);
    return 2;
  }
  if (options === null) {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  return options;
}
