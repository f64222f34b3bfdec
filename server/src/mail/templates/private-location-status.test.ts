import { describe, expect, it } from 'vitest';
import { privateLocationStatusMail } from './private-location-status.ts';

const base = {
	to: 'ada@example.test',
	locationName: 'Rack <b>"7"</b>',
	workspaceName: 'Acme & Co',
	lastSeenAt: new Date('2026-11-22T21:04:59.999Z'),
	link: 'http://dash.test/private-locations/3?a=1&b=2'
};

describe('private location status mail', () => {
	it('says what happened, with the name, last seen time in UTC and the dashboard link', () => {
		const mail = privateLocationStatusMail({ ...base, transition: 'toError' });
		expect(mail.subject).toBe('Private location "Rack <b>"7"</b>" stopped reporting');
		expect(mail.text).toBe(
			'Private location "Rack <b>"7"</b>" in workspace "Acme & Co" has not reported for more than 15 minutes; its status changed from active to error. Monitors that run only from it are not being checked.\n\n' +
				'Last seen: 2026-11-22 21:04 UTC\nLocation: http://dash.test/private-locations/3?a=1&b=2\n\n' +
				'Check that its probe is running and that SERVICE_INGEST_URL points at the ingest server (port 8081).\n'
		);
		expect(privateLocationStatusMail({ ...base, transition: 'recovered' }).subject).toBe(
			'Private location "Rack <b>"7"</b>" is reporting again'
		);
		expect(privateLocationStatusMail({ ...base, transition: 'firstReport' }).text).toContain(
			'status changed from unknown to active'
		);
	});

	it('escapes user-chosen names in the HTML part', () => {
		const { html } = privateLocationStatusMail({ ...base, transition: 'toError' });
		expect(html).not.toContain('<b>');
		expect(html).toContain('Rack &#60;b&#62;&#34;7&#34;&#60;/b&#62;');
		expect(html).toContain('Acme &#38; Co');
		expect(html).toContain('href="http://dash.test/private-locations/3?a=1&#38;b=2"');
	});
});
