import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { RequestError } from '@memory/platform';

const MAX_URL_LENGTH = 2_048;

/**
 * Addresses a webhook may not reach unless private targets are allowed: unspecified, loopback, private (RFC 1918,
 * fc00::/7, and the shared 100.64/10), link-local (169.254/16 with the cloud metadata address, fe80::/10) and
 * multicast or broadcast. A hostname is checked by what it resolves to, at registration and again at each delivery
 * (the connection goes to the address checked), so a name that later points inside is refused too.
 */
const REFUSED = new BlockList();
for (const [net, prefix] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.168.0.0', 16], ['224.0.0.0', 3]] as const) {
  REFUSED.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) REFUSED.addSubnet(net, prefix, 'ipv6');

/** Whether a webhook may not be sent to this IP address (an IPv4-mapped IPv6 address is judged as its IPv4). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return REFUSED.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return REFUSED.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Checks a webhook URL's shape: http(s), a host, no credentials, at most 2,048 characters. */
export function parseWebhookUrl(raw: unknown): URL {
  const invalid = (why: string) => new RequestError(400, 'WEBHOOK.INVALID_URL', `url ${why}`, { field: 'url' });
  if (typeof raw !== 'string' || raw.length === 0) throw invalid('must be a string');
  if (raw.length > MAX_URL_LENGTH) throw invalid(`must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('is not an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid('must be http or https');
  if (url.username || url.password) throw invalid('must not carry credentials');
  if (!url.hostname) throw invalid('needs a host');
  return url;
}

/** Resolves the URL's host and refuses it when any of its addresses is private (unless allowed). */
export async function checkWebhookTarget(url: URL, allowPrivate: boolean): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
  } catch {
    throw new RequestError(400, 'WEBHOOK.INVALID_URL', `url host ${host} does not resolve`, { field: 'url' });
  }
  if (!allowPrivate && addresses.some(isPrivateAddress)) throw privateTarget(host);
}

/**
 * A DNS lookup for node:http that resolves as usual and then refuses private addresses, so the address a delivery
 * connects to is the one checked (no second resolution an attacker's DNS could answer differently).
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true, verbatim: true }).then(
      (entries) => {
        const refused = allowPrivate ? undefined : entries.find((entry) => isPrivateAddress(entry.address));
        if (refused) return callback(privateTarget(hostname), '', 4);
        if (options.all) return callback(null, entries);
        const [first] = entries;
        return first ? callback(null, first.address, first.family) : callback(new Error(`${hostname} has no address`), '', 4);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 4),
    );
  };
}

function privateTarget(host: string): RequestError {
  return new RequestError(400, 'WEBHOOK.PRIVATE_TARGET', `${host} resolves to a loopback, private, link-local or unspecified address; webhooks are sent to public addresses only`, { field: 'url' });
}
