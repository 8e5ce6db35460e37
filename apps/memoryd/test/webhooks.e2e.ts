import { describeWebhookScenarios, describeWebhookTargetRefusal, underTest, WEBHOOK_TEST_ENV } from '@memory/testing';
import { memorydProcess } from './harness.js';

describeWebhookScenarios('signed webhooks (embedded default)', underTest(memorydProcess(WEBHOOK_TEST_ENV)));
describeWebhookTargetRefusal('webhook targets, private ones refused by default (embedded default)', underTest(memorydProcess()));
