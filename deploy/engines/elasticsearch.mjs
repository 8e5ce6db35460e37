// Elasticsearch 8, one node, behind the stores-elasticsearch adapter. Elastic publishes its integration-test
// distribution (org.elasticsearch.distribution.integ-test-zip:elasticsearch) on Maven Central: the real server with
// its own launcher, `bin/elasticsearch`, and the modules transport-netty4 (HTTP), x-pack-core and x-pack-security;
// dense_vector, kNN search, range fields and composable index templates are all in the server itself. It ships no
// JDK, so the machine's Java (17 or newer) runs it. Not in it: lang-painless (no scripts), analysis-common (no
// language analysers), reindex (no _delete_by_query). The embedded cluster runner the issue named
// (org.codelibs:elasticsearch-cluster-runner) stops at 7.10 on Maven Central, so this is the 8.x that can be had.
//
// The zip is unpacked by Maven into .engines/cache/elasticsearch; the configuration is written into
// .engines/data/elasticsearch/config on every launch from the settings below (so a change here applies on the next
// `up`, and a second set of engines sharing the cache keeps its own ports); data and the node's own log files stay
// in .engines/data/elasticsearch too, so `down --wipe` is a clean reset and `down` + `up` keeps every index.
//
// Elasticsearch refuses to run as root and has no switch for it. Our machines and CI run as root, so there the
// node runs as the unprivileged `nobody` (setpriv, util-linux), owning only the folders it writes; as any other
// user it simply runs as that user.
import { spawnSync } from 'node:child_process';
import { chownSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { enginePort } from './support/layout.mjs';
import { httpOk } from './support/waiting.mjs';

// The newest 8.x on Maven Central, the minor of the @elastic/elasticsearch client at the root.
const VERSION = '8.19.21';
const ARTIFACT = `org.elasticsearch.distribution.integ-test-zip:elasticsearch:${VERSION}:zip`;
const DEPENDENCY_PLUGIN = 'org.apache.maven.plugins:maven-dependency-plugin:3.8.1';

const HOST = '127.0.0.1';
const HTTP_PORT = enginePort(9200);
const TRANSPORT_PORT = enginePort(9300);
const URL = `http://${HOST}:${HTTP_PORT}`;
const HEAP = process.env.MEMORY_ES_HEAP || '1g';
// nobody:nogroup on Debian; numeric, so no account has to exist or be created.
const UNPRIVILEGED = { uid: 65534, gid: 65534 };

function paths({ cache, data }) {
  const home = join(cache, `elasticsearch-${VERSION}`);
  return {
    home,
    config: join(data, 'config'),
    marker: join(cache, 'distribution.version'),
    data: join(data, 'data'),
    logs: join(data, 'logs'),
    tmp: join(data, 'tmp'),
  };
}

function installed(p) {
  return existsSync(p.marker) && readFileSync(p.marker, 'utf8').trim() === VERSION && existsSync(join(p.home, 'bin', 'elasticsearch'));
}

function unpackDistribution(cache, log) {
  log(`fetching ${ARTIFACT} from Maven Central and unpacking it (first run only, ~110 MB)`);
  const run = spawnSync(
    'mvn',
    ['-B', '-q', '-Dstyle.color=never', `${DEPENDENCY_PLUGIN}:unpack`, `-Dartifact=${ARTIFACT}`, `-DoutputDirectory=${cache}`],
    { cwd: cache, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (run.error || run.status !== 0) {
    const output = `${run.stdout ?? ''}${run.stderr ?? ''}`.trim().split('\n').slice(-20).join('\n');
    throw new Error(`Maven could not fetch ${ARTIFACT} (exit ${run.status ?? run.error?.message}):\n${output}`);
  }
}

/** The Java that runs the node: ES_JAVA_HOME if set, else JAVA_HOME, else the `java` on the PATH. */
function javaHome() {
  for (const candidate of [process.env.ES_JAVA_HOME, process.env.JAVA_HOME]) {
    if (candidate && existsSync(join(candidate, 'bin', 'java'))) return candidate;
  }
  const probe = spawnSync('java', ['-XshowSettings:properties', '-version'], { encoding: 'utf8' });
  const home = /^\s*java\.home = (.+)$/m.exec(`${probe.stderr ?? ''}${probe.stdout ?? ''}`)?.[1]?.trim();
  if (probe.error || !home) throw new Error('no Java found: Elasticsearch needs Java 17 or newer (set ES_JAVA_HOME or put java on the PATH)');
  return home;
}

/**
 * The node's settings. Disk watermarks are absolute free space rather than the default 85/90/95 %, so a nearly
 * full development disk does not stop shard allocation or turn indices read-only, while a truly full one still does.
 */
function settings(p) {
  return {
    'cluster.name': 'memory-local',
    'node.name': 'memory-local-1',
    'path.data': p.data,
    'path.logs': p.logs,
    'network.host': HOST,
    'http.port': HTTP_PORT,
    'transport.port': TRANSPORT_PORT,
    'discovery.type': 'single-node',
    'xpack.security.enabled': false,
    'cluster.routing.allocation.disk.watermark.low': '1gb',
    'cluster.routing.allocation.disk.watermark.high': '500mb',
    'cluster.routing.allocation.disk.watermark.flood_stage': '200mb',
  };
}

function writeConfig(p) {
  mkdirSync(join(p.config, 'jvm.options.d'), { recursive: true });
  for (const dir of [p.data, p.logs, p.tmp]) mkdirSync(dir, { recursive: true });
  const yaml = Object.entries(settings(p))
    .map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
    .join('\n');
  writeFileSync(join(p.config, 'elasticsearch.yml'), `# Written by deploy/engines/elasticsearch.mjs on every launch; edit that file instead.\n${yaml}\n`);
  // The distribution's options, less its GC log (32 files of 64 MB in the working directory, the cache).
  const jvmOptions = readFileSync(join(p.home, 'config', 'jvm.options'), 'utf8')
    .split('\n')
    .filter((line) => !line.startsWith('-Xlog:gc'))
    .join('\n');
  writeFileSync(join(p.config, 'jvm.options'), jvmOptions);
  writeFileSync(join(p.config, 'jvm.options.d', 'memory-local.options'), `-Xms${HEAP}\n-Xmx${HEAP}\n-XX:HeapDumpPath=${p.tmp}\n`);
  copyFileSync(join(p.home, 'config', 'log4j2.properties'), join(p.config, 'log4j2.properties'));
}

/** Gives the folders the node writes (its config folder too: it creates its keystore there) to `owner`. */
function handOver(p, owner) {
  const visit = (path) => {
    chownSync(path, owner.uid, owner.gid);
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const child = join(path, entry.name);
      if (entry.isDirectory()) visit(child);
      else chownSync(child, owner.uid, owner.gid);
    }
  };
  for (const dir of [p.config, p.tmp, p.logs]) visit(dir);
  // Only the top of the data folder: what lies below was written by the node itself, and may be large.
  chownSync(p.data, owner.uid, owner.gid);
}

export default {
  name: 'elasticsearch',
  summary: `Elasticsearch ${VERSION}, single node, security off, from Maven Central`,
  endpoints: { ELASTICSEARCH_URL: URL },
  // Measured on two busy cores: about 45 s for the very first start, 15-20 s after that.
  readyTimeoutMs: 240_000,
  stopGraceMs: 60_000,

  async install(ctx) {
    const p = paths(ctx.dirs);
    if (installed(p)) return;
    rmSync(p.home, { recursive: true, force: true });
    unpackDistribution(ctx.dirs.cache, ctx.log);
    if (!existsSync(join(p.home, 'bin', 'elasticsearch'))) throw new Error(`the distribution did not unpack into ${p.home}`);
    writeFileSync(p.marker, `${VERSION}\n`);
  },

  async launch(ctx) {
    const p = paths(ctx.dirs);
    writeConfig(p);
    const script = ['bash', join(p.home, 'bin', 'elasticsearch')];
    const asRoot = process.getuid?.() === 0;
    const unprivileged = ['setpriv', `--reuid=${UNPRIVILEGED.uid}`, `--regid=${UNPRIVILEGED.gid}`, '--clear-groups', '--'];
    if (asRoot) {
      handOver(p, UNPRIVILEGED);
      // A checkout under a private home folder (/root is 0700) is out of nobody's reach; say so plainly.
      const jar = join(p.home, 'lib', `elasticsearch-${VERSION}.jar`);
      const probe = spawnSync(unprivileged[0], [...unprivileged.slice(1), 'test', '-r', jar]);
      if (probe.error || probe.status !== 0) {
        throw new Error(`the unprivileged user (uid ${UNPRIVILEGED.uid}) cannot read ${jar}: set MEMORY_ENGINES_DIR to a folder every user can enter`);
      }
    }
    const [command, ...args] = asRoot ? [...unprivileged, ...script] : script;
    return {
      command,
      args,
      env: {
        HOME: p.tmp,
        ES_JAVA_HOME: javaHome(),
        ES_PATH_CONF: p.config,
        ES_TMPDIR: p.tmp,
        // Heap comes from jvm.options.d; ES_JAVA_OPTS stays the user's to add to.
        ES_JAVA_OPTS: process.env.ES_JAVA_OPTS ?? '',
        JAVA_HOME: '',
      },
      cwd: ctx.dirs.data,
    };
  },

  async ready() {
    // 408 until the cluster is yellow; the short timeout keeps one probe quick.
    return httpOk(`${URL}/_cluster/health?wait_for_status=yellow&timeout=1s`);
  },
};
