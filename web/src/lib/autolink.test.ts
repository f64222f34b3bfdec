import { describe, expect, it } from 'vitest';
import { autolink } from './autolink';

describe('autolink', () => {
	it('splits text into plain parts and http(s) links, leaving markup as text', () => {
		expect(
			autolink('Open https://dash.test/auth/verify?token=a-b_c.\n<a href="javascript:x">x</a>')
		).toEqual([
			{ text: 'Open ' },
			{
				text: 'https://dash.test/auth/verify?token=a-b_c',
				href: 'https://dash.test/auth/verify?token=a-b_c'
			},
			{ text: '.\n<a href="javascript:x">x</a>' }
		]);
		expect(autolink('no links, javascript:alert(1)')).toEqual([
			{ text: 'no links, javascript:alert(1)' }
		]);
	});
});
