import { writeAudit } from '../audit.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { requireFeature } from '../limits.ts';
import { parseInput } from '../parse.ts';
import { withTransaction } from '../transaction.ts';
import {
	checkCustomDomain,
	checkPlanFeatures,
	checkStatusPage,
	checkUnique,
	getStatusPageInWorkspace,
	hashPassword,
	toStatusPageData,
	toStatusPageOutput,
	withDefaultLocale
} from './internal.ts';
import { checkCustomDomainDns, type CustomDomainDns } from './custom-domain-dns.ts';
import { CreateStatusPageInput, UpdateStatusPageInput, type StatusPageOutput } from './schemas.ts';
import { markPageChanged } from './public/page-changes.ts';

// Fields not sent keep their value; a password not re-sent keeps the old hash. A plan feature is
// required only for a change towards it (checkPlanFeatures), so a downgrade never locks a page.
// `serviceUrls` and `dns` as in create.ts; DNS is checked only when the domain changes, so a
// page whose domain was set up before keeps saving.
export async function updateStatusPage(args: {
	ctx: ServiceContext;
	input: UpdateStatusPageInput;
	serviceUrls?: string[];
	dns?: CustomDomainDns | null;
}): Promise<StatusPageOutput> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	const { pageId, password, ...patch } = parseInput(UpdateStatusPageInput, args.input);
	const domain = patch.custom_domain?.toLowerCase();
	if (domain && args.dns) {
		const saved = await ctx.db.statusPage.findFirst({
			where: { id: pageId, workspaceId: ctx.workspace.id },
			select: { customDomain: true }
		});
		// The plan comes first: no lookup (and no "add a CNAME" advice) for a domain it refuses.
		if (saved && saved.customDomain !== domain) {
			requireFeature(ctx.workspace.limits, 'custom-domain');
			await checkCustomDomainDns(domain, args.dns);
		}
	}
	return withTransaction(ctx, async (tx) => {
		const row = await getStatusPageInWorkspace({ tx, id: pageId, workspaceId: ctx.workspace.id });
		const before = toStatusPageOutput(row);
		const {
			id: _i,
			has_password: _h,
			published: _p,
			created_at: _c,
			updated_at: _u,
			...current
		} = before;
		const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
		const merged = withDefaultLocale(parseInput(CreateStatusPageInput, { ...current, ...defined }));
		checkStatusPage(merged, password !== undefined || row.passwordHash !== null);
		checkCustomDomain(merged, args.serviceUrls ?? []);
		checkPlanFeatures(ctx.workspace.limits, merged, current);
		await checkUnique(tx, merged, row.id);
		const passwordHash = password
			? hashPassword(password)
			: merged.access_type === 'password'
				? row.passwordHash
				: null;
		await markPageChanged(tx, row.id);
		const updated = await tx.statusPage.update({
			where: { id: row.id },
			data: toStatusPageData(merged, passwordHash)
		});
		const after = toStatusPageOutput(updated);
		await writeAudit({
			ctx,
			tx,
			action: 'status_page.update',
			entityType: 'status_page',
			entityId: row.id,
			before,
			after
		});
		return after;
	});
}
