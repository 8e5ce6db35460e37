import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acceptedAtOf, AvroCodec, createJobIdClock, EVENTS } from '@memory/contracts';
import { Keyring, type DataKeyStore, type EventLog, type JobStore, type SchemaRegistry } from '@memory/ports';
import { createLogger } from '@memory/platform';
import { createForgetting, createIngestion, createJobIdIssuer } from '@memory/http-api';
import { createEmbeddedEventLog } from '@memory/eventlog-embedded';
import { createEmbeddedJobStore } from '@memory/jobs-embedded';
import { openEmbeddedKeyStore } from '@memory/keys-embedded';
import { createEmbeddedSchemaRegistry } from '@memory/schema-registry-embedded';

/**
 * An erasure that lands after an accept has claimed its job's key (which the accepting edge then holds in its
 * keyring) and before it writes the Accepted job record: the event is sealed and appended, the pipeline drops it as
 * forgotten, and the record written after the forgetter removed the end user's jobs would stay Accepted forever.
 */
describe('an accept racing an erasure of its end user', function () {
  this.timeout(30_000);
  const scope = { tenantId: 'acme', endUserId: 'ada' };
  const logger = createLogger({}, 'silent');
  let dir: string;
  let keyStore: DataKeyStore;
  let jobs: JobStore;
  let log: EventLog;
  let registry: SchemaRegistry;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'accept-erasure-race-'));
    keyStore = await openEmbeddedKeyStore({ dir: join(dir, 'keys') });
    jobs = createEmbeddedJobStore({ dir: join(dir, 'jobs') });
    log = await createEmbeddedEventLog({ dir: join(dir, 'log') });
    registry = await createEmbeddedSchemaRegistry({ dir: join(dir, 'registry') });
    await log.ensureTopics(Object.values(EVENTS).map((event) => ({ name: event.topic, partitions: 1 })));
  });
  afterEach(async () => {
    await Promise.all([keyStore.close(), jobs.close(), log.close(), registry.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  /** An edge over the shared stores, with a keyring of its own, as each process of the distributed mode has. */
  const edge = (clock: ReturnType<typeof createJobIdClock>, jobStore: JobStore) => {
    const keys = new Keyring(keyStore);
    const deps = { log, codec: new AvroCodec(registry, keys), jobs: jobStore, keys, logger, issueJobId: createJobIdIssuer(keys, clock) };
    return { ingestion: createIngestion(deps), forgetting: createForgetting(deps) };
  };

  it('refuses the accept as of an erased end user and leaves no job record', async () => {
    // One clock for both edges: the erasure is issued later, so it covers the job (edges keep their clocks in step).
    const clock = createJobIdClock();
    const erasing = edge(clock, jobs);
    // The erasure is carried out in full (keys destroyed at the edge, then what the forgetter does with the keys and
    // the job records) just before the accepting edge writes its Accepted record.
    let erasedJobs = -1;
    let raced: string | undefined;
    const erasureFirst: JobStore = {
      get: (tenantId, jobId) => jobs.get(tenantId, jobId),
      async update(...args) {
        raced = args[1];
        const { jobId } = await erasing.forgetting.eraseUser(scope);
        const before = acceptedAtOf(jobId)!;
        await keyStore.erase(scope, before);
        erasedJobs = await jobs.erase(scope, before);
        return jobs.update(...args);
      },
      forget: (tenantId, jobIds) => jobs.forget(tenantId, jobIds),
      erase: (erased, before) => jobs.erase(erased, before),
      countByState: () => jobs.countByState(),
      close: () => jobs.close(),
    };
    const accepting = edge(clock, erasureFirst);

    const answer = await accepting.ingestion.acceptText(scope.tenantId, scope.endUserId, null, { content: 'I met Zora at the station', sourceTimestamp: null, userContext: null, metadata: null }).catch((error: unknown) => error);

    expect(erasedJobs, 'the erasure ran while the job was being accepted').to.equal(0);
    expect(await jobs.get(scope.tenantId, raced!), 'the erased end user keeps no job record').to.equal(null);
    expect(answer).to.include({ status: 409, code: 'REQUEST.END_USER_ERASED' });
  });
});
