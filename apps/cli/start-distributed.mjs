// `npm run start:distributed`: the launcher of the distributed mode, in plain JavaScript. It stays up as long as
// the service, and through tsx it held ~40 MB more for good (tsx's loader thread and what it compiled). A short-lived
// tsx process brings the compiled apps up to date (`build-apps`), then the compiled cli runs here.
// MEMORY_COMPILED_APPS=off runs everything from the sources: the cli through tsx, in a child process.
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const sourceCli = join(here, 'src', 'main.ts');
const throughTsx = ['--conditions=source', '--import', 'tsx', sourceCli];
const args = ['start-distributed', ...process.argv.slice(2)];

if (process.env['MEMORY_COMPILED_APPS'] === 'off') {
  const child = spawn(process.execPath, [...throughTsx, ...args], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  // The build says where the compiled cli is, so this file knows nothing of the build's layout.
  const built = spawnSync(process.execPath, [...throughTsx, 'build-apps', '--json'], { stdio: ['inherit', 'pipe', 'inherit'], encoding: 'utf8' });
  if (built.status !== 0) process.exit(built.status ?? 1);
  const compiledCli = JSON.parse(built.stdout.trim().split('\n').pop()).cli;
  process.argv = [process.argv[0], compiledCli, ...args];
  await import(pathToFileURL(compiledCli).href);
}
