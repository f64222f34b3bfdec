// The status page's own words. Placeholders in braces are filled by `fill()`.
export const en = {
	banner: {
		operational: 'All systems operational',
		degraded_performance: 'Degraded performance',
		partial_outage: 'Partial outage',
		major_outage: 'Major outage',
		under_maintenance: 'Under maintenance'
	},
	state: {
		operational: 'Operational',
		degraded_performance: 'Degraded performance',
		partial_outage: 'Partial outage',
		major_outage: 'Major outage',
		under_maintenance: 'Under maintenance',
		unknown: 'No data yet'
	},
	reportStatus: {
		investigating: 'Investigating',
		identified: 'Identified',
		monitoring: 'Monitoring',
		resolved: 'Resolved'
	} as Record<string, string>,
	activeReports: 'Current incidents',
	maintenance: 'Maintenance',
	inProgress: 'In progress',
	upcoming: 'Scheduled',
	history: 'Incident history',
	noHistory: 'No incidents reported.',
	noHistoryInMonth: 'No incidents reported this month.',
	historyPages: 'Incident history pages',
	noSuchReport: 'There is no such report on this page.',
	olderHistory: 'Older incidents',
	newestHistory: 'Latest incidents',
	components: 'Components',
	noComponents: 'No components yet.',
	affects: 'Affects',
	viewReport: 'Details',
	back: 'Back to status',
	uptimeOf: '{pct} uptime',
	dayChecks: '{checks} checks, {failed} failed',
	noData: 'No data',
	daysAgo: '{days} days ago',
	today: 'Today',
	website: 'Website',
	contact: 'Contact',
	links: 'Links',
	feeds: 'Feeds',
	language: 'Language',
	poweredBy: 'Powered by Upstate',
	gate: {
		passwordTitle: 'This page is protected',
		passwordLabel: 'Password',
		unlock: 'View status',
		emailTitle: 'Sign in with your work e-mail',
		emailLabel: 'E-mail address',
		sendLink: 'Send me a link',
		linkSent: 'Check your inbox: we sent you a link valid for 15 minutes.',
		continue: 'Continue to the status page',
		ipDenied: 'This status page is not available from your network.'
	}
};
export type Messages = typeof en;
