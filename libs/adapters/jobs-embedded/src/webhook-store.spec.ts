import { describeWebhookStoreContract, tempDirStoreFactory } from '@memory/testing';
import { createEmbeddedWebhookStore } from './index.js';

describeWebhookStoreContract('jobs-embedded', tempDirStoreFactory('webhooks-embedded', (dir) => createEmbeddedWebhookStore({ dir })));
