// MinIO, the S3-compatible object store behind the blobs-minio adapter, built from source with `go install` (no
// Docker, no prebuilt download). The module, Go's build cache and the binary all live under .engines/cache/minio:
// a second install finds the binary and returns at once, and nothing lands in ~/go. The first build takes about
// ten minutes on 2 busy cores and fills ~2 GB of cache.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runLongBuild } from './support/long-build.mjs';
import { enginePort } from './support/layout.mjs';
import { httpOk } from './support/waiting.mjs';

// MinIO's RELEASE.* tags are not semver, so the Go module proxy resolves none of them; this pseudo-version is the
// one it lists: the last commit of the repository, which MinIO has since marked as no longer maintained.
const MODULE = 'github.com/minio/minio';
const VERSION = 'v0.0.0-20260212201848-7aac2a2c5b7c';

const HOST = '127.0.0.1';
const PORT = enginePort(9000);
const CONSOLE_PORT = enginePort(9001);
const ROOT_USER = 'memory-local';
const ROOT_PASSWORD = 'memory-local-secret';
const READY_URL = `http://${HOST}:${PORT}/minio/health/ready`;

// A full build prints one line per compiled package; a progress line this often keeps a minutes-long build
// visibly alive without flooding the terminal.

function paths(cache) {
  const bin = join(cache, 'bin');
  return {
    bin,
    binary: join(bin, 'minio'),
    marker: join(bin, 'minio.version'),
    gopath: join(cache, 'gopath'),
    gocache: join(cache, 'gocache'),
    buildLog: join(cache, 'build.log'),
  };
}

function installed(cache) {
  const { binary, marker } = paths(cache);
  return existsSync(binary) && existsSync(marker) && readFileSync(marker, 'utf8').trim() === VERSION;
}

async function goInstall(cache, log) {
  const p = paths(cache);
  mkdirSync(p.bin, { recursive: true });
  const env = {
    ...process.env,
    GOBIN: p.bin,
    GOPATH: p.gopath,
    GOMODCACHE: join(p.gopath, 'pkg', 'mod'),
    GOCACHE: p.gocache,
    // No toolchain can be downloaded here; the installed Go must do.
    GOTOOLCHAIN: 'local',
    // A static binary like MinIO's own releases; also spares a C toolchain.
    CGO_ENABLED: '0',
    // Writable module cache so `rm -rf .engines` works without chmod.
    GOFLAGS: [process.env.GOFLAGS, '-modcacherw'].filter(Boolean).join(' '),
  };
  const args = ['install', '-v', '-trimpath', '-ldflags=-s -w', `${MODULE}@${VERSION}`];
  log(`building ${MODULE}@${VERSION} with ${goVersion()} (first run only; several minutes on 2 cores; log ${p.buildLog})`);
  let packages = 0;
  try {
    const { seconds } = await runLongBuild({
      command: 'go',
      args,
      env,
      buildLog: p.buildLog,
      // `go install -v` prints each package path it compiles; download notices start with "go: ".
      onLine: (line) => {
        if (!line.startsWith('go: ') && !line.includes(' ')) packages += 1;
      },
      progress: () => `${packages} packages so far`,
      log,
      tailLines: 20,
    });
    if (!existsSync(p.binary)) throw Object.assign(new Error(`go reported success but left no ${p.binary}`), { tail: [] });
    writeFileSync(p.marker, `${VERSION}\n`);
    log(`built ${p.binary} (${packages} packages, ${seconds} s)`);
  } catch (error) {
    throw new Error(`go install ${MODULE}@${VERSION} failed (${error.message}):\n${(error.tail ?? []).join('\n')}`);
  }
}

function goVersion() {
  const run = spawnSync('go', ['env', 'GOVERSION'], { encoding: 'utf8' });
  if (run.error || run.status !== 0) throw new Error('MinIO is built from source and needs Go (1.24 or newer) on the PATH');
  return run.stdout.trim();
}

export default {
  name: 'minio',
  summary: `MinIO (${MODULE}@${VERSION}) built from the Go module proxy, single node, single drive`,
  endpoints: {
    MEMORY_S3_ENDPOINT: `http://${HOST}:${PORT}`,
    MEMORY_S3_ACCESS_KEY: ROOT_USER,
    MEMORY_S3_SECRET_KEY: ROOT_PASSWORD,
    MEMORY_S3_BUCKET: 'memory-blobs',
  },
  readyTimeoutMs: 60_000,
  stopGraceMs: 15_000,

  async install(ctx) {
    if (installed(ctx.dirs.cache)) return;
    // A binary of another version must not be launched as if it were this one.
    rmSync(paths(ctx.dirs.cache).binary, { force: true });
    await goInstall(ctx.dirs.cache, ctx.log);
  },

  async launch(ctx) {
    return {
      command: paths(ctx.dirs.cache).binary,
      args: ['server', ctx.dirs.data, '--address', `${HOST}:${PORT}`, '--console-address', `${HOST}:${CONSOLE_PORT}`, '--quiet'],
      env: {
        MINIO_ROOT_USER: ROOT_USER,
        MINIO_ROOT_PASSWORD: ROOT_PASSWORD,
        // A local engine must not phone home or nag about updates.
        MINIO_UPDATE: 'off',
        MINIO_CALLHOME_ENABLE: 'off',
      },
      cwd: ctx.dirs.data,
    };
  },

  async ready() {
    return httpOk(READY_URL);
  },
};
