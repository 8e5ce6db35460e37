// Fetches Java artifacts and all their runtime dependencies from Maven Central into an engine's cache folder, and
// returns the classpath. Maven's own ~/.m2 cache makes a second install fast; the marker file makes it instant.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const DEPENDENCY_PLUGIN = 'org.apache.maven.plugins:maven-dependency-plugin:3.8.1';

/**
 * @param {object} options
 * @param {string} options.cacheDir  the engine's cache folder
 * @param {string[]} options.artifacts  'group:artifact:version' coordinates
 * @param {string[]} [options.exclusions]  'group:artifact' pairs excluded from every artifact's dependencies
 * @param {(line: string) => void} options.log
 * @returns {string[]} absolute paths of every jar
 */
export function fetchClasspath({ cacheDir, artifacts, exclusions = [], log }) {
  const libDir = join(cacheDir, 'lib');
  const marker = join(cacheDir, 'lib.coordinates');
  const wanted = JSON.stringify({ artifacts, exclusions });
  if (existsSync(marker) && readFileSync(marker, 'utf8') === wanted) return jarsIn(libDir);

  log(`fetching ${artifacts.join(', ')} and dependencies from Maven Central (first run only)`);
  rmSync(libDir, { recursive: true, force: true });
  mkdirSync(libDir, { recursive: true });
  writeFileSync(join(cacheDir, 'pom.xml'), pomFor(artifacts, exclusions));
  const run = spawnSync(
    'mvn',
    ['-B', '-q', '-Dstyle.color=never', `${DEPENDENCY_PLUGIN}:copy-dependencies`, '-DincludeScope=runtime', `-DoutputDirectory=${libDir}`],
    { cwd: cacheDir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (run.error || run.status !== 0) {
    const output = `${run.stdout ?? ''}${run.stderr ?? ''}`.trim().split('\n').slice(-20).join('\n');
    throw new Error(`Maven could not fetch ${artifacts.join(', ')} (exit ${run.status ?? run.error?.message}):\n${output}`);
  }
  writeFileSync(marker, wanted);
  const jars = jarsIn(libDir);
  log(`${jars.length} jars in ${libDir}`);
  return jars;
}

function jarsIn(dir) {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jar'))
    .sort()
    .map((name) => join(dir, name));
}

function pomFor(artifacts, exclusions) {
  const exclusionXml = exclusions
    .map((pair) => {
      const [groupId, artifactId] = pair.split(':');
      return `<exclusion><groupId>${groupId}</groupId><artifactId>${artifactId}</artifactId></exclusion>`;
    })
    .join('');
  const dependencies = artifacts
    .map((coordinates) => {
      const [groupId, artifactId, version] = coordinates.split(':');
      return `<dependency><groupId>${groupId}</groupId><artifactId>${artifactId}</artifactId><version>${version}</version><exclusions>${exclusionXml}</exclusions></dependency>`;
    })
    .join('\n    ');
  return `<?xml version="1.0" encoding="UTF-8"?>
<!-- Written by deploy/engines/support/maven.mjs: only used to resolve a classpath. -->
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>memory.engines</groupId>
  <artifactId>classpath</artifactId>
  <version>0</version>
  <dependencies>
    ${dependencies}
  </dependencies>
</project>
`;
}
