/**
 * Child process of the key store's crash and fsync tests: opens the store in `dir`, creates the given keys, then
 * destroys some. `then` says what follows: 'scrub' (a forgetter batch's scrub, then close) or 'killed' (SIGKILL as
 * soon as the destroying transaction commits).
 *
 * Usage: node --conditions=source --import tsx forget-child.ts '<json>'
 *   json: { dir, keys: [keyId, hex key][], forget: keyId[], then: 'scrub' | 'killed' }
 */
import type { RootDatabase } from 'lmdb';
import { killAfterNextCommit } from '@memory/testing';
import { openEmbeddedKeyStore } from '../src/index.js';

interface ChildConfig {
  dir: string;
  keys: Array<[string, string]>;
  forget: string[];
  then: 'scrub' | 'killed';
}

const config = JSON.parse(process.argv[2] ?? '{}') as ChildConfig;
const scope = { tenantId: 'acme', endUserId: 'alice' };
const store = await openEmbeddedKeyStore({ dir: config.dir });
await store.create(config.keys.map(([keyId, hex]) => ({ scope, keyId, key: Buffer.from(hex, 'hex') })));
if (config.then === 'killed') killAfterNextCommit((store as unknown as { env: RootDatabase }).env);
await store.forget(scope, config.forget);
await store.scrub();
await store.close();
