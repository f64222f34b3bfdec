import type { ServiceContext } from '../src/domain/context.ts';
import { createPageComponent } from '../src/domain/page-component/index.ts';
import { createStatusPage } from '../src/domain/status-page/index.ts';

// Two status pages of the workspace, each with one static component: for the tests that a
// component of the other page is refused.
export async function twoPages(ctx: ServiceContext) {
	const ws = ctx.workspace.id;
	const pageId = (await createStatusPage({ ctx, input: { title: 'Acme', slug: `acme-${ws}` } })).id;
	const otherPageId = (
		await createStatusPage({ ctx, input: { title: 'Other', slug: `other-${ws}` } })
	).id;
	const componentId = (
		await createPageComponent({ ctx, input: { pageId, type: 'static', name: 'API' } })
	).id;
	const otherPageComponentId = (
		await createPageComponent({ ctx, input: { pageId: otherPageId, type: 'static', name: 'X' } })
	).id;
	return { pageId, otherPageId, componentId, otherPageComponentId };
}
