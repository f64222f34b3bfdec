import type { Messages } from './en.ts';

export const es: Messages = {
	banner: {
		operational: 'Todos los sistemas operativos',
		degraded_performance: 'Rendimiento degradado',
		partial_outage: 'Interrupción parcial',
		major_outage: 'Interrupción grave',
		under_maintenance: 'En mantenimiento'
	},
	state: {
		operational: 'Operativo',
		degraded_performance: 'Rendimiento degradado',
		partial_outage: 'Interrupción parcial',
		major_outage: 'Interrupción grave',
		under_maintenance: 'En mantenimiento',
		unknown: 'Aún sin datos'
	},
	reportStatus: {
		investigating: 'Investigando',
		identified: 'Identificado',
		monitoring: 'En observación',
		resolved: 'Resuelto'
	},
	activeReports: 'Incidentes actuales',
	maintenance: 'Mantenimiento',
	inProgress: 'En curso',
	upcoming: 'Programado',
	history: 'Historial de incidentes',
	noHistory: 'No se han reportado incidentes.',
	noHistoryInMonth: 'No se reportaron incidentes este mes.',
	historyPages: 'Páginas del historial de incidentes',
	noSuchReport: 'Este informe no existe en esta página.',
	olderHistory: 'Incidentes anteriores',
	newestHistory: 'Incidentes recientes',
	components: 'Componentes',
	noComponents: 'Aún no hay componentes.',
	affects: 'Afecta a',
	viewReport: 'Detalles',
	back: 'Volver al estado',
	uptimeOf: '{pct} de disponibilidad',
	dayChecks: '{checks} comprobaciones, {failed} fallidas',
	noData: 'Sin datos',
	daysAgo: 'hace {days} días',
	today: 'Hoy',
	website: 'Sitio web',
	contact: 'Contacto',
	links: 'Enlaces',
	feeds: 'Feeds',
	language: 'Idioma',
	poweredBy: 'Con la tecnología de Upstate',
	gate: {
		passwordTitle: 'Esta página está protegida',
		passwordLabel: 'Contraseña',
		unlock: 'Ver estado',
		emailTitle: 'Accede con tu correo de trabajo',
		emailLabel: 'Correo electrónico',
		sendLink: 'Enviarme un enlace',
		linkSent: 'Revisa tu bandeja de entrada: el enlace es válido durante 15 minutos.',
		continue: 'Continuar a la página de estado',
		ipDenied: 'Esta página de estado no está disponible desde tu red.'
	}
};
