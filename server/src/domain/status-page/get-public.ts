import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { NotFoundError } from '../errors.ts';
import { parseInput } from '../parse.ts';
import { ACCESS_TYPES } from './schemas.ts';

export const GetPublicStatusPageInput = z.object({ slug: z.string().min(1).max(256) });
export type GetPublicStatusPageInput = z.infer<typeof GetPublicStatusPageInput>;

const PublicComponent = z.object({
	id: z.number(),
	name: z.string(),
	description: z.string(),
	type: z.enum(['monitor', 'static']),
	status: z.enum(['active', 'degraded', 'error', 'unknown'])
});

export const PublicStatusPageOutput = z.object({
	title: z.string(),
	slug: z.string(),
	description: z.string(),
	homepage_url: z.string().nullable(),
	contact_url: z.string().nullable(),
	icon: z.string().nullable(),
	access_type: z.enum(ACCESS_TYPES),
	allow_index: z.boolean(),
	// Top-level entries in `order`: a lone component, or a group with its components in `group_order`.
	sections: z.array(
		z.discriminatedUnion('kind', [
			z.object({ kind: z.literal('component'), component: PublicComponent }),
			z.object({
				kind: z.literal('group'),
				id: z.number(),
				name: z.string(),
				components: z.array(PublicComponent)
			})
		])
	)
});
export type PublicStatusPageOutput = z.infer<typeof PublicStatusPageOutput>;
type PublicComponent = z.infer<typeof PublicComponent>;

// The public read of the status site: no credential, only what a reader may see. Access
// control (password, e-mail domain, IP) is enforced by the status-site work on top of
// `access_type`; until then the site refuses non-public pages.
export async function getPublicStatusPage(args: {
	db: Db;
	input: GetPublicStatusPageInput;
}): Promise<PublicStatusPageOutput> {
	const { slug } = parseInput(GetPublicStatusPageInput, args.input);
	const page = await args.db.statusPage.findFirst({
		where: { slug, published: true },
		include: {
			groups: true,
			components: {
				include: { monitor: { select: { status: true, active: true } } },
				orderBy: [{ order: 'asc' }, { id: 'asc' }]
			}
		}
	});
	if (!page) throw new NotFoundError('status page', slug);
	const toPublic = (c: (typeof page.components)[number]): PublicComponent => ({
		id: c.id,
		name: c.name,
		description: c.description,
		type: c.type as PublicComponent['type'],
		status: (c.monitor?.status ?? 'unknown') as PublicComponent['status']
	});
	const sections: PublicStatusPageOutput['sections'] = [];
	const seenGroups = new Set<number>();
	for (const c of page.components) {
		if (c.groupId === null) {
			sections.push({ kind: 'component', component: toPublic(c) });
		} else if (!seenGroups.has(c.groupId)) {
			seenGroups.add(c.groupId);
			const members = page.components
				.filter((m) => m.groupId === c.groupId)
				.sort((a, b) => a.groupOrder - b.groupOrder || a.id - b.id);
			const group = page.groups.find((g) => g.id === c.groupId);
			sections.push({
				kind: 'group',
				id: c.groupId,
				name: group?.name ?? '',
				components: members.map(toPublic)
			});
		}
	}
	return {
		title: page.title,
		slug: page.slug,
		description: page.description,
		homepage_url: page.homepageUrl,
		contact_url: page.contactUrl,
		icon: page.icon,
		access_type: page.accessType as PublicStatusPageOutput['access_type'],
		allow_index: page.allowIndex,
		sections
	};
}
