/**
 * Which webhook URLs and addresses we send to. With `allowPrivate` false (production) only https
 * to a public address: loopback, private, link-local, CGNAT, unique-local, IPv4-mapped IPv6,
 * multicast, documentation and reserved ranges are refused. The WHATWG URL parser turns numeric
 * tricks (`2130706433`, `0177.0.0.1`, `0x7f.1`) into the dotted address they mean, so they are
 * refused as that address. The check runs at creation and again on the address actually
 * connected to (see sender.ts), so DNS cannot point elsewhere later.
 */
import { BlockList, isIP } from 'node:net';
import { isAllowedUrlScheme } from '@printwire/shared/contracts/url';

export interface UrlPolicy {
  /** Outside production: http and non-public addresses allowed (tests use 127.0.0.1). */
  allowPrivate: boolean;
  /** Longest URL accepted. Default 2048. */
  maxUrlLength: number;
}

// Two lists: Node matches IPv4 addresses against IPv6 rules through their mapped form.
const blockedV4 = new BlockList();
const blockedV6 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blockedV4.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['::ffff:0:0', 96],
  ['::', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blockedV6.addSubnet(net, prefix, 'ipv6');
}

/** A reason the address is not public, or null when it is. */
export function nonPublicReason(address: string): string | null {
  const family = isIP(address);
  if (family === 0) return `${address} is not an IP address`;
  if (family === 6 && /^::ffff:/i.test(address)) return `${address} is an IPv4-mapped address`;
  if (family === 4 ? blockedV4.check(address, 'ipv4') : blockedV6.check(address, 'ipv6')) {
    return `${address} is not a public address`;
  }
  return null;
}

/** The URL's host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** Checks a webhook URL's form (and its literal address); returns the problem or null. */
export function urlProblem(raw: string, policy: UrlPolicy): string | null {
  if (raw.length > policy.maxUrlLength) return `at most ${policy.maxUrlLength} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not an absolute URL';
  }
  if (!isAllowedUrlScheme(url.protocol, !policy.allowPrivate)) {
    return policy.allowPrivate ? 'must use https or http' : 'must use https';
  }
  if (url.username || url.password) return 'must not contain credentials';
  if (url.hash) return 'must not contain a fragment';
  const host = hostOf(url);
  if (!policy.allowPrivate) {
    if (isIP(host)) {
      const reason = nonPublicReason(host);
      if (reason) return `must point to a public address (${reason})`;
    } else if (host === 'localhost' || host.endsWith('.localhost') || !host.includes('.')) {
      return `must point to a public address (${host} is local)`;
    }
  }
  return null;
}
