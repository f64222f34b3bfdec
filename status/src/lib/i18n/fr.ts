import type { Messages } from './en.ts';

export const fr: Messages = {
	banner: {
		operational: 'Tous les systèmes sont opérationnels',
		degraded_performance: 'Performances dégradées',
		partial_outage: 'Panne partielle',
		major_outage: 'Panne majeure',
		under_maintenance: 'Maintenance en cours'
	},
	state: {
		operational: 'Opérationnel',
		degraded_performance: 'Performances dégradées',
		partial_outage: 'Panne partielle',
		major_outage: 'Panne majeure',
		under_maintenance: 'En maintenance',
		unknown: 'Pas encore de données'
	},
	reportStatus: {
		investigating: 'Analyse en cours',
		identified: 'Cause identifiée',
		monitoring: 'Sous surveillance',
		resolved: 'Résolu'
	},
	activeReports: 'Incidents en cours',
	maintenance: 'Maintenance',
	inProgress: 'En cours',
	upcoming: 'Planifiée',
	history: 'Historique des incidents',
	noHistory: 'Aucun incident signalé.',
	noHistoryInMonth: 'Aucun incident signalé ce mois-ci.',
	historyPages: 'Pages de l’historique des incidents',
	noSuchReport: 'Ce rapport n’existe pas sur cette page.',
	olderHistory: 'Incidents plus anciens',
	newestHistory: 'Derniers incidents',
	components: 'Composants',
	noComponents: 'Aucun composant pour le moment.',
	affects: 'Concerne',
	viewReport: 'Détails',
	back: 'Retour au statut',
	uptimeOf: '{pct} de disponibilité',
	dayChecks: '{checks} vérifications, {failed} en échec',
	noData: 'Aucune donnée',
	daysAgo: 'il y a {days} jours',
	today: "Aujourd'hui",
	website: 'Site web',
	contact: 'Contact',
	links: 'Liens',
	feeds: 'Flux',
	language: 'Langue',
	poweredBy: 'Propulsé par Upstate',
	gate: {
		passwordTitle: 'Cette page est protégée',
		passwordLabel: 'Mot de passe',
		unlock: 'Voir le statut',
		emailTitle: 'Connectez-vous avec votre e-mail professionnel',
		emailLabel: 'Adresse e-mail',
		sendLink: 'Recevoir un lien',
		linkSent: 'Consultez votre boîte de réception : le lien est valable 15 minutes.',
		continue: 'Continuer vers la page de statut',
		ipDenied: "Cette page de statut n'est pas accessible depuis votre réseau."
	}
};
