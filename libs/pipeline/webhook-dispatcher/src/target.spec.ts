import { expect } from 'chai';
import { expectCode } from '@memory/testing';
import { checkWebhookTarget, isPrivateAddress, parseWebhookUrl } from './target.js';

describe('webhook targets', () => {
  it('refuses loopback, private, link-local and unspecified addresses, v4, v6 and v4-mapped', () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '0.0.0.0', '100.64.0.1', '::1', '::', 'fc00::1', 'fd12:3456::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1']) {
      expect(isPrivateAddress(address), address).to.equal(true);
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8']) {
      expect(isPrivateAddress(address), address).to.equal(false);
    }
  });

  it('checks the addresses a host name resolves to, unless private targets are allowed', async () => {
    await expectCode(() => checkWebhookTarget(new URL('http://localhost:9/hook'), false), 'WEBHOOK.PRIVATE_TARGET');
    await expectCode(() => checkWebhookTarget(new URL('http://[::1]:9/hook'), false), 'WEBHOOK.PRIVATE_TARGET');
    await expectCode(() => checkWebhookTarget(new URL('http://169.254.169.254/latest'), false), 'WEBHOOK.PRIVATE_TARGET');
    await checkWebhookTarget(new URL('http://127.0.0.1:9/hook'), true);
  });

  it('takes http(s) URLs with a host and no credentials only', async () => {
    for (const url of ['ftp://example.com/x', 'not a url', '/relative', 'https://user:pw@example.com/', 42, `https://example.com/${'a'.repeat(2_100)}`]) {
      await expectCode(async () => parseWebhookUrl(url), 'WEBHOOK.INVALID_URL');
    }
    expect(parseWebhookUrl('https://example.com/hooks?x=1').href).to.equal('https://example.com/hooks?x=1');
  });
});
