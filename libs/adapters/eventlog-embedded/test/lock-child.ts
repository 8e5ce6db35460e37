/**
 * Child process for the directory lock specs. It prints `ready`, and on the first line of stdin either takes the
 * lock of the directory in argv[2] (`lock`) or opens the event log there (`open`), then prints `won` or
 * `lost <code>`. It stays alive, holding what it took, until its stdin closes: a winner that exited would leave a
 * stale lock that a slower contender may rightly take over.
 *
 * Usage: node --conditions=source --import tsx lock-child.ts <dir>
 */
import { createInterface } from 'node:readline';
import { createEmbeddedEventLog } from '../src/index.js';
import { lockDir } from '../src/dir-lock.js';

const dir = process.argv[2]!;
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
process.stdout.write('ready\n');
const command = (await lines.next()).value as string | undefined;
try {
  if (command === 'lock') await lockDir(dir);
  else if (command === 'open') await createEmbeddedEventLog({ dir });
  else throw new Error(`unknown command ${command}`);
  process.stdout.write('won\n');
} catch (error) {
  process.stdout.write(`lost ${(error as { code?: string }).code ?? String(error)}\n`);
}
while (!(await lines.next()).done);
process.exit(0);
