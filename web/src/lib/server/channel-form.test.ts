import { describe, expect, it } from 'vitest';
import { providerForm } from '../notification-providers.ts';
import { channelBlock } from './channel-form.ts';

const ntfy = providerForm('ntfy')!; // safe: ntfy is a listed provider
const form = (entries: Record<string, string>) => {
	const data = new FormData();
	for (const [k, v] of Object.entries(entries)) data.set(k, v);
	return data;
};

describe('channel form block', () => {
	it('on edit, clears an emptied optional field and a secret whose box is ticked', () => {
		const data = form({ topic: 'alerts', server_url: '', token: '', clear_token: 'on' });
		expect(channelBlock(data, ntfy, { edit: true })).toEqual({
			topic: 'alerts',
			server_url: null,
			token: null
		});
	});

	it('keeps an empty secret without the box, and a newly typed secret wins over the box', () => {
		expect(channelBlock(form({ topic: 'alerts', token: '' }), ntfy, { edit: true })).toEqual({
			topic: 'alerts',
			server_url: null
		});
		expect(
			channelBlock(form({ topic: 'a', token: 'tk_new', clear_token: 'on' }), ntfy, { edit: true })
		).toEqual({ topic: 'a', server_url: null, token: 'tk_new' });
	});

	it('on create, leaves empty fields out', () => {
		expect(channelBlock(form({ topic: 'alerts', server_url: '', token: '' }), ntfy)).toEqual({
			topic: 'alerts'
		});
	});
});
