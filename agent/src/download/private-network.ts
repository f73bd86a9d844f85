import { BlockList, isIP } from 'node:net';
import { PrintwireError } from '@printwire/shared/errors/index';

/**
 * The shop's own network, which a job printed through local mode may not make the agent fetch
 * (unless the organization's `localDownloadsToPrivateNetwork` allows it): a web page must not
 * use the agent to reach, or probe, the printers, routers and admin pages beside it.
 */
const PRIVATE_NETWORK = new BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8], // "this network"; 0.0.0.0 reaches the machine itself
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT shared space: the ISP's side of the shop's router
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  PRIVATE_NETWORK.addSubnet(address, prefix, 'ipv4');
}
for (const [address, prefix] of [
  ['::', 128], // unspecified: reaches the machine itself
  ['::1', 128],
  ['fe80::', 10],
  ['fc00::', 7],
] as const) {
  PRIVATE_NETWORK.addSubnet(address, prefix, 'ipv6');
}

/** The rule a refused download names (the job's errorMessage). */
export const PRIVATE_NETWORK_RULE =
  "local jobs may not download from the shop's network (private, carrier-grade NAT, loopback, link-local or unique-local addresses) unless the organization's setting localDownloadsToPrivateNetwork allows it";

/**
 * True for an IP address of the shop's network: 10/8, 172.16/12, 192.168/16, 100.64/10, 127/8, ::1,
 * 169.254/16, fe80::/10, fc00::/7, 0.0.0.0/8 and ::, also written as IPv4-mapped IPv6
 * (`::ffff:127.0.0.1`, `::ffff:7f00:1`). Not an IP address: false.
 */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 4) return PRIVATE_NETWORK.check(bare, 'ipv4');
  if (family !== 6) return false;
  const mapped = ipv4Mapped(bare);
  if (mapped) return PRIVATE_NETWORK.check(mapped, 'ipv4');
  return PRIVATE_NETWORK.check(bare, 'ipv6');
}

/** The IPv4 address inside `::ffff:a.b.c.d` or `::ffff:XXXX:XXXX`, else null. */
function ipv4Mapped(ipv6: string): string | null {
  // The URL parser writes every spelling in one canonical form (`::ffff:7f00:1`).
  const canonical = new URL(`http://[${ipv6}]/`).hostname.slice(1, -1).toLowerCase();
  const m = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (!m) return null;
  const high = parseInt(m[1]!, 16);
  const low = parseInt(m[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** DOWNLOAD_FAILED naming the rule; never whether anything answered at that address. */
export function privateNetworkRefused(url: URL): PrintwireError {
  return new PrintwireError(
    'DOWNLOAD_FAILED',
    `${url.origin} is refused: ${PRIVATE_NETWORK_RULE}`,
    {
      retryable: false,
    },
  );
}
