// A schema registry with the Confluent REST API: Apicurio Registry 2.4.2.Final, its Confluent-compatible API under
// /apis/ccompat/v7, built from Maven Central into a runnable Quarkus application by the Maven project in
// ./registry (see its pom.xml for why this version and what fills the gaps in what Central serves). Schemas live
// in an H2 database file under .engines/data/registry: schema ids travel inside stored events, so they must
// survive a restart.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { enginePort } from './support/layout.mjs';
import { runLongBuild } from './support/long-build.mjs';
import { httpOk } from './support/waiting.mjs';

const HOST = '127.0.0.1';
const PORT = enginePort(8081);
const API = `http://${HOST}:${PORT}/apis/ccompat/v7`;
const PROJECT = join(dirname(fileURLToPath(import.meta.url)), 'registry');
// The Quarkus build step of Apicurio 2.4.2 targets Java 11; the JDK of the machines (17) runs both.
const MIN_JAVA = 11;

function paths(cache) {
  const build = join(cache, 'build');
  return {
    build,
    runner: join(build, 'app', 'target', 'registry-runner.jar'),
    marker: join(cache, 'build.fingerprint'),
    buildLog: join(cache, 'build.log'),
  };
}

/** A digest of the Maven project's files: a changed pom or processor means a rebuild. */
function projectFingerprint() {
  const hash = createHash('sha256');
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (name === 'target') continue;
      if (statSync(path).isDirectory()) walk(path);
      else hash.update(`${relative(PROJECT, path)}\0`).update(readFileSync(path)).update('\0');
    }
  };
  walk(PROJECT);
  return hash.digest('hex');
}

function installed(cache) {
  const p = paths(cache);
  return existsSync(p.runner) && existsSync(p.marker) && readFileSync(p.marker, 'utf8').trim() === projectFingerprint();
}

function javaMajor() {
  const run = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (run.error || run.status !== 0) throw new Error(`the schema registry needs Java ${MIN_JAVA} or newer on the PATH (java -version failed)`);
  const match = /version "(\d+)(?:\.(\d+))?/.exec(`${run.stderr}${run.stdout}`);
  const major = match ? Number(match[1] === '1' ? match[2] : match[1]) : NaN;
  if (!(major >= MIN_JAVA)) throw new Error(`the schema registry needs Java ${MIN_JAVA} or newer; java -version says:\n${run.stderr.trim()}`);
  return major;
}

async function mavenBuild(cache, log) {
  const p = paths(cache);
  if (spawnSync('mvn', ['-v'], { encoding: 'utf8' }).status !== 0) throw new Error('building the schema registry needs Maven (mvn) on the PATH');
  // A fresh copy: nothing of an older project version (or its target/) can leak into the build.
  rmSync(p.build, { recursive: true, force: true });
  mkdirSync(p.build, { recursive: true });
  cpSync(PROJECT, p.build, { recursive: true, filter: (source) => !source.split(/[\\/]/).includes('target') });

  // -DskipDefault switches off a profile of Apicurio's parent pom that adds the Confluent and jitpack
  // repositories: neither is reachable here, and asking them only slows every lookup down.
  const args = ['-B', '-Dstyle.color=never', '-DskipDefault', 'package'];
  log(`building Apicurio Registry with Maven (first run only; a few minutes, most of it downloads; log ${p.buildLog})`);
  let downloads = 0;
  let step = 'resolving dependencies';
  try {
    const { seconds } = await runLongBuild({
      command: 'mvn',
      args,
      cwd: p.build,
      env: { ...process.env, MAVEN_OPTS: process.env.MAVEN_OPTS ?? '-Xmx2g' },
      buildLog: p.buildLog,
      onLine: (line) => {
        if (line.startsWith('[INFO] Downloaded from')) downloads += 1;
        const module = /^\[INFO\] Building (.+?)\s+\[(\d+\/\d+)\]$/.exec(line);
        if (module) {
          step = `module ${module[2]}`;
          log(`  ${module[2]} ${module[1]}`);
        }
        if (line.includes('quarkus-maven-plugin') && line.includes(':build')) {
          step = 'Quarkus build step';
          log('  Quarkus build step (augmentation)');
        }
      },
      progress: () => `${step}: ${downloads} files downloaded`,
      log,
    });
    if (!existsSync(p.runner)) throw Object.assign(new Error(`Maven reported success but left no ${p.runner}`), { tail: [] });
    writeFileSync(p.marker, `${projectFingerprint()}\n`);
    log(`built ${p.runner} (${downloads} files downloaded, ${seconds} s)`);
  } catch (error) {
    const tail = error.tail ?? [];
    const errors = tail.filter((line) => line.startsWith('[ERROR]'));
    throw new Error(`mvn package of the schema registry failed (${error.message}); from ${p.buildLog}:\n${(errors.length ? errors : tail).join('\n')}`);
  }
}

export default {
  name: 'registry',
  summary: 'Apicurio Registry 2.4.2 (Confluent REST API under /apis/ccompat/v7), built from Maven Central, H2 file storage',
  endpoints: { MEMORY_SCHEMA_REGISTRY_URL: API },
  // Quarkus starts in ~20 s on an idle machine; a machine busy building other engines can take several times that.
  readyTimeoutMs: 180_000,
  stopGraceMs: 30_000,

  async install(ctx) {
    javaMajor();
    if (installed(ctx.dirs.cache)) return;
    rmSync(paths(ctx.dirs.cache).marker, { force: true });
    await mavenBuild(ctx.dirs.cache, ctx.log);
  },

  async launch(ctx) {
    const tmp = join(ctx.dirs.data, 'tmp');
    mkdirSync(tmp, { recursive: true });
    const settings = {
      'java.io.tmpdir': tmp,
      'quarkus.http.host': HOST,
      // Apicurio's own defaults are a 20-100 connection pool, sized for a shared database server; one worker
      // thread (below) and the scheduler's jobs need a handful.
      '%prod.quarkus.datasource.jdbc.initial-size': '2',
      '%prod.quarkus.datasource.jdbc.min-size': '2',
      '%prod.quarkus.datasource.jdbc.max-size': '8',
      // One request at a time. Apicurio's SQL storage hands out content ids from a sequence table that is safe
      // only under a database server's locking: on embedded H2, concurrent registrations fail with lock timeouts
      // and "concurrent update" errors (racing registrations in the adapter's tests showed it). A pool of one
      // connection is no cure, as one request uses two connections; one worker thread serialises whole requests
      // instead, which costs nothing at the rate schemas are registered and read (readers cache them).
      'quarkus.thread-pool.max-threads': '1',
      'registry.auth.enabled': 'false',
      // What a Confluent registry does out of the box: refuse a new version that readers of the latest one cannot
      // read, and refuse text that is not a schema. GET /config still says NONE: these are defaults, not stored.
      'registry.rules.global.compatibility': 'BACKWARD',
      'registry.rules.global.validity': 'FULL',
      // Confluent semantics for ids: one id per schema content, the same under every subject (Apicurio's content
      // id; legacy mode would hand out a new global id per version).
      'registry.ccompat.legacy-id-mode.enabled': 'false',
      // Must stay off: with it, Apicurio 2.4.2 stores the canonical form it hashes, whose record fields are sorted
      // by name, and field order is the Avro binary layout: frames written with the registered schema no longer
      // decode with the one read back by id. Layout-insensitive ids come from the adapter instead, which sends
      // every schema with its object keys sorted (field order untouched).
      'registry.ccompat.use-canonical-hash': 'false',
      // GET /subjects lists at most this many (oldest first); tests add unique subjects on every run.
      'registry.ccompat.max-subjects': '1000000',
    };
    return {
      command: 'java',
      args: ['-Xms64m', '-Xmx512m', ...Object.entries(settings).map(([key, value]) => `-D${key}=${value}`), '-jar', paths(ctx.dirs.cache).runner],
      env: {
        // Apicurio reads these two through its application.properties (as %prod values).
        HTTP_PORT: String(PORT),
        REGISTRY_DATASOURCE_URL: `jdbc:h2:file:${join(ctx.dirs.data, 'registry')}`,
      },
      cwd: ctx.dirs.data,
    };
  },

  async ready() {
    return httpOk(`${API}/subjects`);
  },
};
