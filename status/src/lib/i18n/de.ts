import type { Messages } from './en.ts';

export const de: Messages = {
	banner: {
		operational: 'Alle Systeme funktionieren',
		degraded_performance: 'Eingeschränkte Leistung',
		partial_outage: 'Teilweiser Ausfall',
		major_outage: 'Schwerer Ausfall',
		under_maintenance: 'Wartungsarbeiten'
	},
	state: {
		operational: 'Funktioniert',
		degraded_performance: 'Eingeschränkte Leistung',
		partial_outage: 'Teilweiser Ausfall',
		major_outage: 'Schwerer Ausfall',
		under_maintenance: 'In Wartung',
		unknown: 'Noch keine Daten'
	},
	reportStatus: {
		investigating: 'Wird untersucht',
		identified: 'Ursache gefunden',
		monitoring: 'Wird beobachtet',
		resolved: 'Behoben'
	},
	activeReports: 'Aktuelle Störungen',
	maintenance: 'Wartung',
	inProgress: 'Läuft',
	upcoming: 'Geplant',
	history: 'Störungsverlauf',
	noHistory: 'Keine Störungen gemeldet.',
	noHistoryInMonth: 'In diesem Monat wurden keine Störungen gemeldet.',
	historyPages: 'Seiten des Störungsverlaufs',
	noSuchReport: 'Diese Meldung gibt es auf dieser Seite nicht.',
	olderHistory: 'Ältere Störungen',
	newestHistory: 'Neueste Störungen',
	components: 'Komponenten',
	noComponents: 'Noch keine Komponenten.',
	affects: 'Betrifft',
	viewReport: 'Details',
	back: 'Zurück zum Status',
	uptimeOf: '{pct} Verfügbarkeit',
	dayChecks: '{checks} Prüfungen, {failed} fehlgeschlagen',
	noData: 'Keine Daten',
	daysAgo: 'vor {days} Tagen',
	today: 'Heute',
	website: 'Website',
	contact: 'Kontakt',
	links: 'Links',
	feeds: 'Feeds',
	language: 'Sprache',
	poweredBy: 'Bereitgestellt mit Upstate',
	gate: {
		passwordTitle: 'Diese Seite ist geschützt',
		passwordLabel: 'Passwort',
		unlock: 'Status anzeigen',
		emailTitle: 'Mit Ihrer geschäftlichen E-Mail anmelden',
		emailLabel: 'E-Mail-Adresse',
		sendLink: 'Link senden',
		linkSent: 'Bitte prüfen Sie Ihr Postfach: Der Link ist 15 Minuten gültig.',
		continue: 'Weiter zur Statusseite',
		ipDenied: 'Diese Statusseite ist aus Ihrem Netzwerk nicht erreichbar.'
	}
};
