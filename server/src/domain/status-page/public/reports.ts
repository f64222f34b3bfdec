import type { Prisma } from '@prisma/client';
import type { PublicMaintenance, PublicReport } from './schemas.ts';

// Shared shapes of the read side: what is loaded with a report, and how a reader sees it.
export const REPORT_INCLUDE = {
	updates: { include: { impacts: true }, orderBy: [{ date: 'desc' }, { id: 'desc' }] },
	components: { include: { component: { select: { name: true } } } }
} satisfies Prisma.StatusReportInclude;
export type LoadedReport = Prisma.StatusReportGetPayload<{ include: typeof REPORT_INCLUDE }>;

export const isUnresolved = (r: { status: string; resolvedAt: Date | null }) =>
	r.resolvedAt === null && r.status !== 'resolved';

// What a reader's view needs of a report: a loaded one, or a row of the page read (read-page.ts).
type ReportSource = Pick<LoadedReport, 'id' | 'title' | 'status' | 'createdAt' | 'resolvedAt'> & {
	components: { component: { name: string } }[];
	updates: Pick<LoadedReport['updates'][number], 'id' | 'status' | 'message' | 'date'>[];
};

export function toPublicReport(r: ReportSource): PublicReport {
	return {
		id: r.id,
		title: r.title,
		status: r.status,
		created_at: r.createdAt.toISOString(),
		resolved_at: r.resolvedAt?.toISOString() ?? null,
		components: r.components.map((c) => c.component.name),
		updates: r.updates.map((u) => ({
			id: u.id,
			status: u.status,
			message: u.message,
			date: u.date.toISOString()
		}))
	};
}

export const MAINTENANCE_INCLUDE = {
	components: { include: { component: { select: { name: true } } } }
} satisfies Prisma.MaintenanceInclude;
export type LoadedMaintenance = Prisma.MaintenanceGetPayload<{
	include: typeof MAINTENANCE_INCLUDE;
}>;

type MaintenanceSource = Pick<LoadedMaintenance, 'id' | 'title' | 'message' | 'from' | 'to'> & {
	components: { component: { name: string } }[];
};

export function toPublicMaintenance(m: MaintenanceSource, now: Date): PublicMaintenance {
	return {
		id: m.id,
		title: m.title,
		message: m.message,
		from: m.from.toISOString(),
		to: m.to.toISOString(),
		in_progress: m.from <= now && now < m.to,
		components: m.components.map((c) => c.component.name)
	};
}
