import type { SubscriberNotice } from './subscriber.ts';

// Subscriber mail in the page's own language (its default_locale), in the languages the status
// site ships; anything else reads English. Report statuses use the status site's own words
// (status/src/lib/i18n).
type Event = SubscriberNotice['event'];
export type SubscriberMessages = {
	headline: Record<Event, string>;
	status: Record<string, string>;
	line: (headline: string, page: string, title: string) => string;
	subject: (headline: string, page: string, title: string) => string;
	statusLine: string;
	window: (from: string, to: string) => string;
	details: string;
	view: string;
	unsubscribe: string;
	confirmSubject: (page: string) => string;
	confirmAsk: (page: string) => string;
	confirmIgnore: string;
	confirmButton: string;
};

const en: SubscriberMessages = {
	headline: {
		'report-created': 'New incident',
		'report-updated': 'Incident update',
		'report-resolved': 'Resolved',
		'maintenance-scheduled': 'Scheduled maintenance',
		'maintenance-started': 'Maintenance started',
		'maintenance-ended': 'Maintenance ended'
	},
	status: {
		investigating: 'Investigating',
		identified: 'Identified',
		monitoring: 'Monitoring',
		resolved: 'Resolved'
	},
	line: (h, page, title) => `${h} on ${page}: ${title}`,
	subject: (h, page, title) => `[${page}] ${h}: ${title}`,
	statusLine: 'Status',
	window: (from, to) => `Window: ${from} to ${to}`,
	details: 'Details',
	view: 'View on the status page',
	unsubscribe: 'Unsubscribe',
	confirmSubject: (page) => `Confirm your subscription to ${page}`,
	confirmAsk: (page) => `Confirm that you want updates from ${page} by e-mail.`,
	confirmIgnore: 'If you did not ask for this, ignore this mail: nothing will be sent.',
	confirmButton: 'Confirm subscription'
};

const de: SubscriberMessages = {
	headline: {
		'report-created': 'Neuer Vorfall',
		'report-updated': 'Update zum Vorfall',
		'report-resolved': 'Behoben',
		'maintenance-scheduled': 'Geplante Wartung',
		'maintenance-started': 'Wartung begonnen',
		'maintenance-ended': 'Wartung beendet'
	},
	status: {
		investigating: 'Wird untersucht',
		identified: 'Ursache gefunden',
		monitoring: 'Wird beobachtet',
		resolved: 'Behoben'
	},
	line: (h, page, title) => `${h} bei ${page}: ${title}`,
	subject: (h, page, title) => `[${page}] ${h}: ${title}`,
	statusLine: 'Status',
	window: (from, to) => `Zeitraum: ${from} bis ${to}`,
	details: 'Details',
	view: 'Auf der Statusseite ansehen',
	unsubscribe: 'Abmelden',
	confirmSubject: (page) => `Bestätigen Sie Ihr Abonnement von ${page}`,
	confirmAsk: (page) =>
		`Bitte bestätigen Sie, dass Sie Updates von ${page} per E-Mail erhalten möchten.`,
	confirmIgnore:
		'Wenn Sie das nicht angefordert haben, ignorieren Sie diese E-Mail: Es wird nichts gesendet.',
	confirmButton: 'Abonnement bestätigen'
};

const fr: SubscriberMessages = {
	headline: {
		'report-created': 'Nouvel incident',
		'report-updated': "Mise à jour de l'incident",
		'report-resolved': 'Résolu',
		'maintenance-scheduled': 'Maintenance planifiée',
		'maintenance-started': 'Maintenance commencée',
		'maintenance-ended': 'Maintenance terminée'
	},
	status: {
		investigating: 'Analyse en cours',
		identified: 'Cause identifiée',
		monitoring: 'Sous surveillance',
		resolved: 'Résolu'
	},
	line: (h, page, title) => `${h} sur ${page} : ${title}`,
	subject: (h, page, title) => `[${page}] ${h} : ${title}`,
	statusLine: 'Statut',
	window: (from, to) => `Période : du ${from} au ${to}`,
	details: 'Détails',
	view: 'Voir sur la page de statut',
	unsubscribe: 'Se désabonner',
	confirmSubject: (page) => `Confirmez votre abonnement à ${page}`,
	confirmAsk: (page) =>
		`Confirmez que vous souhaitez recevoir par e-mail les mises à jour de ${page}.`,
	confirmIgnore: "Si vous n'avez rien demandé, ignorez ce message : rien ne vous sera envoyé.",
	confirmButton: "Confirmer l'abonnement"
};

const es: SubscriberMessages = {
	headline: {
		'report-created': 'Nuevo incidente',
		'report-updated': 'Actualización del incidente',
		'report-resolved': 'Resuelto',
		'maintenance-scheduled': 'Mantenimiento programado',
		'maintenance-started': 'Mantenimiento iniciado',
		'maintenance-ended': 'Mantenimiento finalizado'
	},
	status: {
		investigating: 'Investigando',
		identified: 'Identificado',
		monitoring: 'En observación',
		resolved: 'Resuelto'
	},
	line: (h, page, title) => `${h} en ${page}: ${title}`,
	subject: (h, page, title) => `[${page}] ${h}: ${title}`,
	statusLine: 'Estado',
	window: (from, to) => `Periodo: del ${from} al ${to}`,
	details: 'Detalles',
	view: 'Ver en la página de estado',
	unsubscribe: 'Cancelar la suscripción',
	confirmSubject: (page) => `Confirma tu suscripción a ${page}`,
	confirmAsk: (page) => `Confirma que quieres recibir por correo las actualizaciones de ${page}.`,
	confirmIgnore: 'Si no lo has solicitado, ignora este correo: no se enviará nada.',
	confirmButton: 'Confirmar la suscripción'
};

const ja: SubscriberMessages = {
	headline: {
		'report-created': '新しいインシデント',
		'report-updated': 'インシデントの更新',
		'report-resolved': '解決済み',
		'maintenance-scheduled': 'メンテナンスの予定',
		'maintenance-started': 'メンテナンス開始',
		'maintenance-ended': 'メンテナンス終了'
	},
	status: {
		investigating: '調査中',
		identified: '原因特定',
		monitoring: '経過観察中',
		resolved: '解決済み'
	},
	line: (h, page, title) => `${page}の${h}：${title}`,
	subject: (h, page, title) => `【${page}】${h}：${title}`,
	statusLine: 'ステータス',
	window: (from, to) => `期間：${from} 〜 ${to}`,
	details: '詳細',
	view: 'ステータスページで見る',
	unsubscribe: '配信停止',
	confirmSubject: (page) => `${page}の購読確認`,
	confirmAsk: (page) => `${page}の更新をメールで受け取るには、購読を確認してください。`,
	confirmIgnore: 'お心当たりがない場合は、このメールを無視してください。何も送信されません。',
	confirmButton: '購読を確認する'
};

const BY_LOCALE: Record<string, SubscriberMessages> = { en, de, fr, es, ja };

// The shipped language a locale reads as (`de-AT` → de), English otherwise.
export const subscriberLang = (locale: string | null | undefined): string => {
	const lang = (locale ?? 'en').toLowerCase().split('-')[0];
	return Object.hasOwn(BY_LOCALE, lang) ? lang : 'en';
};

export const subscriberMessages = (locale: string | null | undefined): SubscriberMessages =>
	BY_LOCALE[subscriberLang(locale)];
