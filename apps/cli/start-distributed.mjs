// `npm run start:distributed`: the launcher of the distributed mode, in plain JavaScript. It stays up as long as
// the service, and through tsx it held ~40 MB more for good (tsx's loader thread and what it compiled). A short-lived
// tsx process brings the compiled apps up to date (`build-apps`), then the compiled cli runs here.
// MEMORY_COMPILED_APPS=off runs everything from the sources: the cli through tsx, in a child process.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
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
  const built = spawnSync(process.execPath, [...throughTsx, 'build-apps'], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
  const apps = join(here, '..', '..', 'dist', 'apps');
  const { build } = JSON.parse(readFileSync(join(apps, 'manifest.json'), 'utf8'));
  const compiledCli = join(apps, build, 'cli.mjs');
  process.argv = [process.argv[0], compiledCli, ...args];
  await import(pathToFileURL(compiledCli).href);
}
