import { writeAudit } from '../audit.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { requireCount } from '../limits.ts';
import { parseInput } from '../parse.ts';
import { withTransaction } from '../transaction.ts';
import { markPageChanged } from './public/page-changes.ts';
import {
	checkCustomDomain,
	checkPlanFeatures,
	checkStatusPage,
	checkUnique,
	hashPassword,
	toStatusPageData,
	toStatusPageOutput,
	withDefaultLocale
} from './internal.ts';
import { checkCustomDomainDns, type CustomDomainDns } from './custom-domain-dns.ts';
import { CreateStatusPageInput, type StatusPageOutput } from './schemas.ts';

// `serviceUrls`: the service's own addresses (config.urls), which no custom domain may take;
// `dns`: how to check that a custom domain points here (config.customDomainDns). The router
// always passes both.
export async function createStatusPage(args: {
	ctx: ServiceContext;
	input: CreateStatusPageInput;
	serviceUrls?: string[];
	dns?: CustomDomainDns | null;
}): Promise<StatusPageOutput> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	const input = withDefaultLocale(parseInput(CreateStatusPageInput, args.input));
	checkStatusPage(input, input.password !== undefined);
	checkCustomDomain(input, args.serviceUrls ?? []);
	checkPlanFeatures(ctx.workspace.limits, input);
	// A network lookup: before the transaction, not inside it.
	if (input.custom_domain && args.dns)
		await checkCustomDomainDns(input.custom_domain.toLowerCase(), args.dns);
	return withTransaction(ctx, async (tx) => {
		requireCount(
			ctx.workspace.limits,
			'status-pages',
			await tx.statusPage.count({ where: { workspaceId: ctx.workspace.id } })
		);
		await checkUnique(tx, input);
		const passwordHash = input.password ? hashPassword(input.password) : null;
		const row = await tx.statusPage.create({
			data: { ...toStatusPageData(input, passwordHash), workspaceId: ctx.workspace.id }
		});
		await markPageChanged(tx, row.id);
		const page = toStatusPageOutput(row);
		await writeAudit({
			ctx,
			tx,
			action: 'status_page.create',
			entityType: 'status_page',
			entityId: row.id,
			before: null,
			after: page
		});
		return page;
	});
}
