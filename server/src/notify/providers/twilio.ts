import { summaryOf } from '../format.ts';
import { sendRequest } from '../http.ts';
import type { Provider } from '../types.ts';

// SMS and WhatsApp through the Twilio Messages API (form-encoded, HTTP Basic with the account
// SID and auth token); WhatsApp addresses carry the `whatsapp:` prefix.
function twilioProvider(kind: 'sms' | 'whatsapp'): Provider {
	return async ({ channel, event, deps }) => {
		const { accountSid, authToken, from, whatsappFrom } = deps.config.twilio;
		const sender = kind === 'sms' ? from : whatsappFrom;
		if (!accountSid || !authToken || !sender)
			return {
				ok: false,
				status: 0,
				error: `Twilio is not configured: set TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and ${kind === 'sms' ? 'TWILIO_FROM' : 'TWILIO_WHATSAPP_FROM'}`
			};
		const prefix = kind === 'whatsapp' ? 'whatsapp:' : '';
		const body = new URLSearchParams({
			To: `${prefix}${String(channel.settings.phone_number)}`,
			From: `${prefix}${sender}`,
			Body: summaryOf(event).slice(0, 1600)
		});
		return sendRequest({
			url: `${deps.config.baseUrls.twilio}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`,
			headers: {
				'content-type': 'application/x-www-form-urlencoded',
				authorization: `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`,
				'user-agent': 'Upstate/1'
			},
			body: body.toString(),
			timeoutMs: deps.config.timeoutMs,
			guard: false
		});
	};
}

export const sendSms = twilioProvider('sms');
export const sendWhatsApp = twilioProvider('whatsapp');
