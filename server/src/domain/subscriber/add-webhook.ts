import { randomBytes } from 'node:crypto';
import type { Vault } from '../../notify/index.ts';
import { writeAudit } from '../audit.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { requireFeature } from '../limits.ts';
import { parseInput } from '../parse.ts';
import { getStatusPageInWorkspace } from '../status-page/internal.ts';
import { checkComponentsOnPage } from '../status-report/internal.ts';
import { withTransaction } from '../transaction.ts';
import { hashSubscriberToken, newToken, toSubscriberOutput } from './internal.ts';
import { AddWebhookSubscriberInput, type WebhookSubscriberOutput } from './schemas.ts';

// A webhook subscriber, added by a member (so confirmed at once). The URL is SSRF-checked at
// each send by the notify HTTP client; the signing secret is sealed and shown only here.
export async function addWebhookSubscriber(args: {
	ctx: ServiceContext;
	input: AddWebhookSubscriberInput;
	vault: Vault;
}): Promise<WebhookSubscriberOutput> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	const input = parseInput(AddWebhookSubscriberInput, args.input);
	requireFeature(ctx.workspace.limits, 'status-subscribers');
	return withTransaction(ctx, async (tx) => {
		const page = await getStatusPageInWorkspace({
			tx,
			id: input.pageId,
			workspaceId: ctx.workspace.id
		});
		const componentIds = [...new Set(input.componentIds)].sort((a, b) => a - b);
		await checkComponentsOnPage(tx, page.id, componentIds);
		const signingSecret = `whsec_${randomBytes(24).toString('base64url')}`;
		const row = await tx.pageSubscriber.create({
			data: {
				workspaceId: ctx.workspace.id,
				pageId: page.id,
				webhookUrl: input.url,
				componentIds: JSON.stringify(componentIds),
				tokenHash: hashSubscriberToken(newToken()),
				confirmedAt: new Date(),
				secret: args.vault.seal({ signingSecret })
			}
		});
		const out = toSubscriberOutput(row);
		await writeAudit({
			ctx,
			tx,
			action: 'page_subscriber.create',
			entityType: 'page_subscriber',
			entityId: row.id,
			before: null,
			after: out
		});
		return { ...out, signingSecret };
	});
}
