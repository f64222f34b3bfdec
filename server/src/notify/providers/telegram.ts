import { escapeHtml, jsonHeaders, titleOf } from '../format.ts';
import { sendRequest } from '../http.ts';
import type { NotifyEvent, Provider } from '../types.ts';

// Telegram Bot API sendMessage, HTML parse mode; the bot is the deployment's (TELEGRAM_BOT_TOKEN).
export function telegramPayload(event: NotifyEvent, chatId: string) {
	const lines = [
		`<b>${escapeHtml(titleOf(event))}</b>`,
		`Monitor: ${escapeHtml(event.monitor.name)} (${escapeHtml(event.monitor.url)})`
	];
	if (event.error) lines.push(`Error: ${escapeHtml(event.error)}`);
	lines.push(
		`At: ${escapeHtml(event.at)}`,
		`<a href="${escapeHtml(event.dashboardUrl)}">Open in Upstate</a>`
	);
	return {
		chat_id: chatId,
		text: lines.join('\n'),
		parse_mode: 'HTML',
		link_preview_options: { is_disabled: true }
	};
}

export const sendTelegram: Provider = async ({ channel, event, deps }) => {
	const token = deps.config.telegramBotToken;
	if (!token) return { ok: false, status: 0, error: 'TELEGRAM_BOT_TOKEN is not configured' };
	return sendRequest({
		url: `${deps.config.baseUrls.telegram}/bot${token}/sendMessage`,
		headers: jsonHeaders,
		body: JSON.stringify(telegramPayload(event, String(channel.settings.chat_id))),
		timeoutMs: deps.config.timeoutMs,
		guard: false
	});
};
