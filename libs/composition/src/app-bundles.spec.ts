import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { appOfScript, buildAppBundles, staleInput, type Manifest } from './app-bundles.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** Runs a bundle with plain Node (no tsx, no source condition) until it prints `until` or exits. */
function runBundle(entry: string, args: string[], env: Record<string, string>, until: RegExp): Promise<{ code: number | null; output: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [entry, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (until.test(output)) child.kill('SIGTERM');
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('error', fail);
    child.once('exit', (code) => {
      clearTimeout(timer);
      done({ code, output });
    });
  });
}

describe('compiled apps', function () {
  this.timeout(120_000);
  let root: string;
  let manifest: Manifest;
  before(async () => {
    // Inside the repository, as the launcher's: Node finds the third-party packages in node_modules above the bundles.
    mkdirSync(join(repoRoot, 'dist'), { recursive: true });
    root = mkdtempSync(join(repoRoot, 'dist', 'app-bundles-spec-'));
    manifest = await buildAppBundles(repoRoot, root);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('tells which app a process runs from its script, source or compiled', () => {
    expect(appOfScript('/repo/apps/stage-worker/src/main.ts')).to.equal('stage-worker');
    expect(appOfScript('/repo/dist/apps/build-1795695375071-14369/edge.mjs')).to.equal('edge');
    expect(appOfScript('/usr/bin/node')).to.equal(null);
    expect(appOfScript('--conditions=source')).to.equal(null);
  });

  it('records every source the build read and is current right after it', () => {
    expect(manifest.inputs).to.include.keys('apps/stage-worker/src/main.ts', 'libs/adapters/embedder-onnx/src/model-catalog.ts', 'libs/composition/package.json');
    expect(staleInput(repoRoot, manifest)).to.equal(null);
  });

  it('is stale when an input changed, went away or the build options changed', () => {
    const changed = { ...manifest, inputs: { ...manifest.inputs, 'apps/edge/src/main.ts': '0'.repeat(64) } };
    expect(staleInput(repoRoot, changed)).to.equal('apps/edge/src/main.ts changed');
    const gone = { ...manifest, inputs: { ...manifest.inputs, 'libs/composition/src/removed.ts': '0'.repeat(64) } };
    expect(staleInput(repoRoot, gone)).to.equal('libs/composition/src/removed.ts is gone');
    expect(staleInput(repoRoot, { ...manifest, recipe: -1 })).to.equal('the build options changed');
    const { ['libs/http-api/package.json']: _omitted, ...withoutPackage } = manifest.inputs;
    expect(staleInput(repoRoot, { ...manifest, inputs: withoutPackage })).to.equal('libs/http-api/package.json is new');
  });

  it('runs with plain Node: a stage worker refuses an unknown stage with the list of stages', async () => {
    const { code, output } = await runBundle(join(root, manifest.build, 'stage-worker.mjs'), ['embedder'], {}, /$^/);
    expect(output).to.match(/unknown stage embedder; the stages are temporal-resolver, enricher/);
    expect(code).to.equal(2);
  });

  it('runs memoryd, which reads files beside its sources (the model catalogue, the embedding worker)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'app-bundles-memoryd-'));
    try {
      const { output } = await runBundle(join(root, manifest.build, 'memoryd.mjs'), [], { MEMORY_DATA_DIR: dataDir, PORT: '0', MEMORY_LOG_LEVEL: 'warn' }, /Memory service ready on http/);
      expect(output).to.match(/Memory service ready on http/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
