import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The apps that run as compiled bundles: the processes of the distributed mode, their launcher (the cli), and memoryd. */
export const BUNDLED_APPS = ['edge', 'search', 'stage-worker', 'memoryd', 'cli'] as const;
export type BundledApp = (typeof BUNDLED_APPS)[number];

/** Raise when the build options below change, so bundles built with the old ones are rebuilt. */
const RECIPE = 1;
/** Builds kept beside the current one: a process started from an older build may still import a chunk of it later. */
const KEPT_BUILDS = 3;
const WORKSPACE_DIRS = ['apps', 'libs', 'libs/pipeline', 'libs/adapters'];

/** Which app a process runs, from the script in its command line: its source entry or its compiled bundle. */
export function appOfScript(script: string): string | null {
  return /apps\/([^/]+)\/src\/main\.ts$/.exec(script)?.[1] ?? /dist\/apps\/[^/]+\/([^/]+)\.mjs$/.exec(script)?.[1] ?? null;
}

export interface Manifest {
  recipe: number;
  /** The folder under dist/apps holding this build's entry points and chunks. */
  build: string;
  /** Every file the build read (sources and workspace package.json files), relative to the repository, with its sha-256. */
  inputs: Record<string, string>;
}

/**
 * The compiled apps, built first when there is no build or any file the last one was built from changed (its
 * content, not its date): a launcher never runs code older than the sources beside it. Returns each app's entry.
 */
export async function appBundles(repoRoot: string, print: (line: string) => void): Promise<Record<BundledApp, string>> {
  const root = join(repoRoot, 'dist', 'apps');
  let manifest = readManifest(root);
  const stale = manifest ? staleInput(repoRoot, manifest) : 'no build yet';
  if (stale !== null) {
    print(`Compiling the apps (${stale})...`);
    const started = Date.now();
    manifest = await buildAppBundles(repoRoot, root);
    print(`Compiled ${BUNDLED_APPS.join(', ')} into ${join(root, manifest.build)} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  const dir = join(root, manifest!.build);
  return Object.fromEntries(BUNDLED_APPS.map((app) => [app, join(dir, `${app}.mjs`)])) as Record<BundledApp, string>;
}

/** The first input that differs from what the build read, described; null when the build is current. */
export function staleInput(repoRoot: string, manifest: Manifest): string | null {
  if (manifest.recipe !== RECIPE) return 'the build options changed';
  for (const [file, hash] of Object.entries(manifest.inputs)) {
    const path = join(repoRoot, file);
    if (!existsSync(path)) return `${file} is gone`;
    if (sha256(readFileSync(path)) !== hash) return `${file} changed`;
  }
  for (const file of workspacePackageFiles(repoRoot)) if (!(relative(repoRoot, file) in manifest.inputs)) return `${relative(repoRoot, file)} is new`;
  return null;
}

/**
 * One esbuild run over every app: our TypeScript bundled, every third-party package left to Node (natives such as
 * sharp and onnxruntime cannot be bundled, and the large ones stay shared on disk), code split at each dynamic
 * import so a process loads only the chunks its roles import. A build goes to a folder of its own, made current by
 * renaming the manifest, so launchers building at once never see half a build.
 */
export async function buildAppBundles(repoRoot: string, root = join(repoRoot, 'dist', 'apps')): Promise<Manifest> {
  const { build, stop } = await import('esbuild');
  const name = `build-${Date.now()}-${process.pid}`;
  const outdir = join(root, name);
  // esbuild runs as a child process that outlives the build unless stopped: ~35 MB the launcher would hold for good.
  const result = await build({
    absWorkingDir: repoRoot,
    entryPoints: Object.fromEntries(BUNDLED_APPS.map((app) => [app, join(repoRoot, 'apps', app, 'src', 'main.ts')])),
    outdir,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    conditions: ['source'],
    metafile: true,
    logLevel: 'silent',
    plugins: [
      {
        name: 'memory-service',
        setup(esbuild) {
          // Bare specifiers other than our workspace packages are third-party: Node resolves them at run time.
          esbuild.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@memory/') ? undefined : { path: args.path, external: true }));
          // Our files that find things beside themselves (a JSON catalogue, a worker script, a package through
          // createRequire) keep doing so from the source tree: import.meta.url stays the source file's URL.
          esbuild.onLoad({ filter: /\.[cm]?[jt]s$/ }, async (args) => {
            if (args.path.includes('/node_modules/')) return undefined;
            const text = await readFile(args.path, 'utf8');
            if (!text.includes('import.meta.url')) return undefined;
            return { contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader: /\.[cm]?ts$/.test(args.path) ? 'ts' : 'js' };
          });
        },
      },
    ],
  }).finally(() => stop());
  const inputs: Record<string, string> = {};
  for (const file of [...Object.keys(result.metafile.inputs).map((input) => join(repoRoot, input)), ...workspacePackageFiles(repoRoot)]) {
    inputs[relative(repoRoot, file)] = sha256(readFileSync(file));
  }
  const manifest: Manifest = { recipe: RECIPE, build: name, inputs };
  const temporary = join(root, `manifest-${name}.json`);
  writeFileSync(temporary, JSON.stringify(manifest));
  renameSync(temporary, join(root, 'manifest.json'));
  pruneBuilds(root, name);
  return manifest;
}

function readManifest(root: string): Manifest | null {
  try {
    const manifest = JSON.parse(readFileSync(join(root, 'manifest.json'), 'utf8')) as Manifest;
    return existsSync(join(root, manifest.build)) ? manifest : null;
  } catch {
    return null;
  }
}

/** The package.json of every workspace package: their exports decide which file an import of ours resolves to. */
function workspacePackageFiles(repoRoot: string): string[] {
  const files = [join(repoRoot, 'package.json')];
  for (const dir of WORKSPACE_DIRS) {
    for (const entry of readdirSync(join(repoRoot, dir), { withFileTypes: true })) {
      const file = join(repoRoot, dir, entry.name, 'package.json');
      if (entry.isDirectory() && existsSync(file)) files.push(file);
    }
  }
  return files;
}

/** Removes all builds but the newest few (the current one always stays). */
function pruneBuilds(root: string, current: string): void {
  const builds = readdirSync(root)
    .filter((entry) => entry.startsWith('build-') && entry !== current)
    .map((entry) => ({ entry, at: statSync(join(root, entry)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const { entry } of builds.slice(KEPT_BUILDS - 1)) rmSync(join(root, entry), { recursive: true, force: true });
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
