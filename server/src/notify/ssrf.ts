import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

// Addresses a user-given URL must never reach (SSRF): unspecified, loopback, private, CGNAT,
// link-local (which holds cloud metadata at 169.254.169.254), documentation, multicast, reserved.
const blocked = new BlockList();
for (const [net, bits] of [
	['0.0.0.0', 8],
	['10.0.0.0', 8],
	['100.64.0.0', 10],
	['127.0.0.0', 8],
	['169.254.0.0', 16],
	['172.16.0.0', 12],
	['192.0.0.0', 24],
	['192.0.2.0', 24],
	['192.168.0.0', 16],
	['198.18.0.0', 15],
	['198.51.100.0', 24],
	['203.0.113.0', 24],
	['224.0.0.0', 4],
	['240.0.0.0', 4]
] as const)
	blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
	['::', 128],
	['::1', 128],
	['64:ff9b::', 96],
	['100::', 64],
	['2001:db8::', 32],
	['fc00::', 7],
	['fe80::', 10],
	['ff00::', 8]
] as const)
	blocked.addSubnet(net, bits, 'ipv6');

export function isPrivateAddress(address: string): boolean {
	const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
	if (mapped) return isPrivateAddress(mapped[1]);
	const family = isIP(address);
	if (family === 0) return true;
	return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export class RefusedTargetError extends Error {}

// The one sentence both the save check and the send check say.
export function refusedTargetMessage(host: string, address: string): string {
	return `${host} is a private, loopback or link-local address (${address}): Upstate does not send there. An operator can allow private targets with NOTIFY_ALLOW_PRIVATE_TARGETS=true`;
}

// The first private address the host resolves to, or null. A name that does not resolve gives
// null: saving it is not refused (the send resolves it again and refuses a private answer).
export async function privateAddressOf(hostname: string): Promise<string | null> {
	const host = hostname.replace(/^\[|\]$/g, '');
	const addresses = isIP(host)
		? [{ address: host }]
		: await lookup(host, { all: true, verbatim: true }).catch(() => []);
	return addresses.find((a) => isPrivateAddress(a.address))?.address ?? null;
}

// Resolves the host and refuses it when any address is private. The HTTP client calls this
// again from its own DNS lookup, so a rebinding answer between check and connect is refused too.
export async function resolvePublic(
	hostname: string
): Promise<Array<{ address: string; family: number }>> {
	const host = hostname.replace(/^\[|\]$/g, '');
	const addresses = isIP(host)
		? [{ address: host, family: isIP(host) }]
		: await lookup(host, { all: true, verbatim: true });
	const bad = addresses.find((a) => isPrivateAddress(a.address));
	if (bad) throw new RefusedTargetError(`refused: ${refusedTargetMessage(host, bad.address)}`);
	return addresses;
}
