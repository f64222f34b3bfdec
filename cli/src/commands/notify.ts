import { usageError } from '../errors.ts';

// Publishing commands say whether subscribers are told: there is no default (spec 4.1 rule 1).
export function requireNotify(flags: { notify?: boolean }): boolean {
	if (flags.notify === undefined)
		throw usageError(
			'publishing needs --notify or --no-notify',
			'pass --notify to tell subscribers now, or --no-notify to publish silently (it cannot be sent later)'
		);
	return flags.notify;
}

export const notified = (n: boolean) => (n ? 'subscribers notified' : 'no notification sent');
