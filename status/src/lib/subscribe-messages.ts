// Wording of the subscribe form and the mailed-link pages, kept beside the feature rather than
// in the shared locale files; a language we do not ship reads English.
const en = {
	title: 'Get updates by e-mail',
	emailLabel: 'E-mail address',
	componentsLegend: 'Only about these components (none ticked: all)',
	submit: 'Subscribe',
	sent: 'Check your inbox: confirm with the link we sent to finish subscribing.',
	confirmTitle: 'Confirm your subscription',
	confirm: 'Confirm subscription',
	confirmed: 'You are subscribed. Every mail has a link to unsubscribe.',
	unsubscribeTitle: 'Unsubscribe',
	unsubscribe: 'Unsubscribe from these updates',
	unsubscribed: 'You are unsubscribed and will receive no more mail about this page.',
	back: 'Back to the status page'
};
export type SubscribeMessages = typeof en;

const de: SubscribeMessages = {
	title: 'Updates per E-Mail erhalten',
	emailLabel: 'E-Mail-Adresse',
	componentsLegend: 'Nur zu diesen Komponenten (keine ausgewählt: alle)',
	submit: 'Abonnieren',
	sent: 'Bitte bestätigen Sie das Abonnement mit dem Link, den wir Ihnen geschickt haben.',
	confirmTitle: 'Abonnement bestätigen',
	confirm: 'Abonnement bestätigen',
	confirmed: 'Sie haben abonniert. Jede E-Mail enthält einen Link zum Abbestellen.',
	unsubscribeTitle: 'Abbestellen',
	unsubscribe: 'Diese Updates abbestellen',
	unsubscribed: 'Sie haben abbestellt und erhalten keine E-Mails mehr zu dieser Seite.',
	back: 'Zurück zur Statusseite'
};

const fr: SubscribeMessages = {
	title: 'Recevoir les mises à jour par e-mail',
	emailLabel: 'Adresse e-mail',
	componentsLegend: 'Seulement pour ces composants (aucun coché : tous)',
	submit: "S'abonner",
	sent: 'Vérifiez votre boîte : confirmez avec le lien envoyé pour terminer.',
	confirmTitle: 'Confirmer votre abonnement',
	confirm: "Confirmer l'abonnement",
	confirmed: 'Vous êtes abonné. Chaque e-mail contient un lien de désabonnement.',
	unsubscribeTitle: 'Se désabonner',
	unsubscribe: 'Se désabonner de ces mises à jour',
	unsubscribed: "Vous êtes désabonné et ne recevrez plus d'e-mails pour cette page.",
	back: 'Retour à la page de statut'
};

const es: SubscribeMessages = {
	title: 'Recibir novedades por correo',
	emailLabel: 'Correo electrónico',
	componentsLegend: 'Solo sobre estos componentes (ninguno marcado: todos)',
	submit: 'Suscribirse',
	sent: 'Revise su bandeja: confirme con el enlace que le enviamos para terminar.',
	confirmTitle: 'Confirme su suscripción',
	confirm: 'Confirmar suscripción',
	confirmed: 'Está suscrito. Cada correo incluye un enlace para darse de baja.',
	unsubscribeTitle: 'Darse de baja',
	unsubscribe: 'Darse de baja de estas novedades',
	unsubscribed: 'Se ha dado de baja y no recibirá más correos sobre esta página.',
	back: 'Volver a la página de estado'
};

const ja: SubscribeMessages = {
	title: 'メールで更新を受け取る',
	emailLabel: 'メールアドレス',
	componentsLegend: '次のコンポーネントのみ（未選択ならすべて）',
	submit: '購読する',
	sent: '送信したリンクで購読を確認してください。',
	confirmTitle: '購読の確認',
	confirm: '購読を確認する',
	confirmed: '購読しました。すべてのメールに購読解除リンクがあります。',
	unsubscribeTitle: '購読解除',
	unsubscribe: 'この更新の購読を解除する',
	unsubscribed: '購読を解除しました。このページに関するメールは届きません。',
	back: 'ステータスページに戻る'
};

const MESSAGES: Record<string, SubscribeMessages> = { en, de, fr, es, ja };

export function subscribeMessagesFor(locale: string): SubscribeMessages {
	return MESSAGES[locale] ?? MESSAGES[locale.split('-')[0].toLowerCase()] ?? en;
}
