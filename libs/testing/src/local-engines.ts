import { connect } from 'node:net';
import type { RealEngine } from './real-engines.js';

/**
 * The real engines the specs run against, at the addresses the apps read (defaults: where `npm run engines:up`
 * starts them), each with a quick reachability probe.
 */
export function localEngines(env: Record<string, string | undefined> = process.env) {
  const brokers = (env['KAFKA_BROKERS'] || '127.0.0.1:9092').split(',').map((b) => b.trim()).filter(Boolean);
  const registryUrl = env['MEMORY_SCHEMA_REGISTRY_URL'] || 'http://127.0.0.1:8081/apis/ccompat/v7';
  const elasticsearchUrl = env['ELASTICSEARCH_URL'] || 'http://127.0.0.1:9200';
  const s3Endpoint = env['MEMORY_S3_ENDPOINT'] || 'http://127.0.0.1:9000';
  const arangoUrl = env['ARANGO_URL'];
  return {
    kafka: { name: 'kafka', endpoint: brokers.join(','), probe: () => tcpAccepts(brokers[0] ?? ''), hint: 'start it with `npm run engines:up kafka`' },
    registry: { name: 'registry', endpoint: registryUrl, probe: () => httpOk(`${registryUrl.replace(/\/+$/, '')}/subjects`), hint: 'start it with `npm run engines:up registry`' },
    elasticsearch: { name: 'elasticsearch', endpoint: elasticsearchUrl, probe: () => httpOk(new URL('/_cluster/health', elasticsearchUrl).href), hint: 'start it with `npm run engines:up elasticsearch`' },
    minio: { name: 'minio', endpoint: s3Endpoint, probe: () => httpOk(new URL('/minio/health/ready', s3Endpoint).href), hint: 'start it with `npm run engines:up minio`' },
    arangodb: {
      name: 'arangodb',
      endpoint: arangoUrl ?? '(ARANGO_URL unset)',
      probe: async () => (arangoUrl ? httpAnswers(new URL('/_api/version', arangoUrl).href) : false),
      hint: 'set ARANGO_URL to a reachable ArangoDB (e.g. the arangodb service of docker-compose.yml); none can be installed here',
    },
  } satisfies Record<string, RealEngine>;
}

function tcpAccepts(hostPort: string, timeoutMs = 1_000): Promise<boolean> {
  const [host, port] = hostPort.split(':');
  return new Promise((resolve) => {
    const socket = connect({ host: host!, port: Number(port) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function httpOk(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok;
  } catch {
    return false;
  }
}

/** Any HTTP answer (an ArangoDB with auth answers 401 to an anonymous probe, and is there). */
async function httpAnswers(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return true;
  } catch {
    return false;
  }
}
