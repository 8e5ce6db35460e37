import { createLogger } from '@memory/platform';
import { createForgetting, createJobIdIssuer } from '@memory/http-api';
import { openInfrastructure, readServiceConfig, type ServiceMode } from '@memory/composition';

/**
 * Erases everything of one tenant: refuses from now on every data key of what the tenant sent before (so nothing of
 * theirs still in flight can be sealed again), destroys those keys, and publishes one end-user erasure per end user
 * the tenant has data keys for, as DELETE /v1/users/{id} would; its webhook endpoints and deliveries are removed. Prints each job as the API answers it; the
 * forgetter carries them out (memoryd: when it next starts, since this command needs its data folder to itself).
 */
export async function eraseTenant(mode: ServiceMode, env: Record<string, string | undefined>, tenantId: string, print: (line: string) => void): Promise<void> {
  const infra = openInfrastructure(readServiceConfig(env, mode), createLogger({ app: 'cli' }));
  try {
    const { log, codec } = await infra.eventBus();
    const keys = await infra.keys();
    const endUsers = new Set<string>();
    for await (const { scope } of keys.entries()) if (scope.tenantId === tenantId) endUsers.add(scope.endUserId);
    const keyring = await infra.keyring();
    const forgetting = createForgetting({ log, codec, jobs: await infra.jobs(), logger: infra.logger, keys: keyring, issueJobId: createJobIdIssuer(keyring) });
    const destroyed = await keyring.erase({ tenantId, endUserId: null }, Date.now());
    // Its webhooks go first, so nothing of these erasures (or anything later) is sent to its endpoints.
    const webhookRecords = await (await infra.webhooks()).forgetTenant(tenantId);
    await (await infra.webhookJobs()).erase({ tenantId, endUserId: null }, Date.now());
    for (const endUserId of [...endUsers].sort()) print(JSON.stringify(await forgetting.eraseUser({ tenantId, endUserId })));
    await keyring.scrub();
    print(`tenant ${tenantId}: ${destroyed} data keys destroyed, ${webhookRecords} webhook endpoints and deliveries removed, ${endUsers.size} end-user erasures accepted${mode === 'embedded' ? ' (carried out when memoryd next starts)' : ''}; remove its API key from MEMORY_API_KEYS`);
  } finally {
    await infra.close();
  }
}
