import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

// A throwaway self-signed certificate for 127.0.0.1/localhost, made by openssl at test time
// (never committed).
export function selfSignedCert(): { key: string; cert: string } {
	const dir = mkdtempSync(path.join(os.tmpdir(), 'upstate-cert-'));
	const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
	execFileSync(
		'openssl',
		[
			'req',
			'-x509',
			'-newkey',
			'rsa:2048',
			'-nodes',
			'-keyout',
			key,
			'-out',
			cert,
			'-days',
			'1',
			'-subj',
			'/CN=localhost',
			'-addext',
			'subjectAltName=DNS:localhost,IP:127.0.0.1'
		],
		{ stdio: 'ignore' }
	);
	return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
}

export function portOf(server: { address(): AddressInfo | string | null }): number {
	return (server.address() as AddressInfo).port;
}
