import { describeWebhookScenarios, describeWebhookTargetRefusal, underTest, WEBHOOK_TEST_ENV } from '@memory/testing';
import { memorydProcess } from './harness.js';

const memoryd = memorydProcess(WEBHOOK_TEST_ENV);
// A restart keeps the data dir: the delivery queue and the consumer group's offsets are still there.
const restart = async () => {
  await memoryd.stop();
  await memoryd.start();
};
describeWebhookScenarios('signed webhooks (embedded default)', Object.assign(underTest(memoryd), { restart }));
describeWebhookTargetRefusal('webhook targets, private ones refused by default (embedded default)', underTest(memorydProcess()));
