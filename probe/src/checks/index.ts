import { checkDns } from './dns.ts';
import { checkGrpc } from './grpc.ts';
import { checkHttp } from './http.ts';
import { checkIcmp } from './icmp.ts';
import { checkTcp } from './tcp.ts';
import type { CheckResult, ProbeMonitor } from './types.ts';

export type CheckOptions = { dnsServers?: string[] };

export function runCheck(m: ProbeMonitor, opts: CheckOptions = {}): Promise<CheckResult> {
	switch (m.type) {
		case 'http':
			return checkHttp(m);
		case 'tcp':
			return checkTcp(m);
		case 'dns':
			return checkDns(m, { servers: opts.dnsServers });
		case 'icmp':
			return checkIcmp(m);
		case 'grpc':
			return checkGrpc(m);
	}
}

export type * from './types.ts';
