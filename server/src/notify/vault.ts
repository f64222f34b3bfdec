import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

export type Vault = {
	seal(value: Record<string, unknown>): string;
	open(sealed: string): Record<string, unknown>;
};

// Channel secrets are encrypted at rest with AES-256-GCM under a key derived (HKDF-SHA256) from
// AUTH_SECRET, so a copied database file alone does not reveal vendor credentials. Rotating
// AUTH_SECRET makes stored channel secrets unreadable: they must be re-entered.
export function createVault(authSecret: string): Vault {
	const key = Buffer.from(
		hkdfSync('sha256', authSecret, 'upstate', 'notification-channel-secrets v1', 32)
	);
	return {
		seal(value) {
			const iv = randomBytes(12);
			const cipher = createCipheriv('aes-256-gcm', key, iv);
			const data = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
			return JSON.stringify({
				v: 1,
				iv: iv.toString('base64'),
				tag: cipher.getAuthTag().toString('base64'),
				data: data.toString('base64')
			});
		},
		open(sealed) {
			const parsed = JSON.parse(sealed) as { v?: number; iv: string; tag: string; data: string };
			if (parsed.v !== 1) return {};
			const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(parsed.iv, 'base64'));
			decipher.setAuthTag(Buffer.from(parsed.tag, 'base64'));
			const plain = Buffer.concat([
				decipher.update(Buffer.from(parsed.data, 'base64')),
				decipher.final()
			]);
			return JSON.parse(plain.toString('utf8')) as Record<string, unknown>;
		}
	};
}
