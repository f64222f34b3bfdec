import type { Command } from 'commander';
import { parseId, parseNumber } from '../context.ts';
import { usageError } from '../errors.ts';
import { done, printList, printRecord } from '../io.ts';
import type { Register } from '../program.ts';
import { readJsonOrYaml } from './input.ts';

const defined = (o: Record<string, unknown>) =>
	Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

type PageFlags = {
	file?: string;
	title?: string;
	slug?: string;
	description?: string;
	accessType?: string;
	password?: string;
	theme?: string;
};
const pageOptions = (cmd: Command) =>
	cmd
		.option('-f, --file <path>', 'fields as a JSON or YAML object (API field names)')
		.option('--title <title>')
		.option('--slug <slug>', 'lowercase letters, digits and dashes; the page URL')
		.option('--description <text>')
		.option('--access-type <type>', 'public, password, email-domain or ip-restriction')
		.option('--password <password>', 'for --access-type password')
		.option('--theme <key>');
const pageFields = (f: PageFlags) => ({
	...(f.file ? readJsonOrYaml(f.file) : {}),
	...defined({
		title: f.title,
		slug: f.slug,
		description: f.description,
		access_type: f.accessType,
		password: f.password,
		theme: f.theme
	})
});

type ComponentFlags = {
	name?: string;
	description?: string;
	order?: number;
	group?: number | false;
	groupOrder?: number;
	monitor?: number;
};
const componentOptions = (cmd: Command) =>
	cmd
		.option('--name <name>')
		.option('--description <text>')
		.option('--order <n>', 'display order', parseNumber)
		.option('--group <id>', 'component group id', parseId)
		.option('--no-group', 'outside any group')
		.option('--group-order <n>', 'order inside the group', parseNumber)
		.option('--monitor <id>', 'the monitor a monitor component shows', parseId);
const componentFields = (f: ComponentFlags) =>
	defined({
		name: f.name,
		description: f.description,
		order: f.order,
		group_id: f.group === false ? null : f.group,
		group_order: f.groupOrder,
		monitor_id: f.monitor
	});

export const registerPages: Register = (program, wrap) => {
	const pages = program.command('status-pages').alias('pages').description('public status pages');
	pages.command('list').action(
		wrap(async (ctx) => {
			const { data } = await ctx.api().call('statusPage.list', {});
			printList(
				ctx.out,
				data,
				[
					{ header: 'ID', value: (p) => p.id },
					{ header: 'TITLE', value: (p) => p.title },
					{ header: 'SLUG', value: (p) => p.slug },
					{ header: 'ACCESS', value: (p) => p.access_type },
					{ header: 'DOMAIN', value: (p) => p.custom_domain }
				],
				'No status pages yet: create one with `upstate status-pages create --title … --slug …`.'
			);
		})
	);
	pages
		.command('get <id>')
		.action(
			wrap(async (ctx, id: string) =>
				printRecord(ctx.out, await ctx.api().call('statusPage.get', { pageId: parseId(id) }))
			)
		);
	pageOptions(pages.command('create')).action(
		wrap(async (ctx, f: PageFlags) => {
			const p = await ctx.api().call('statusPage.create', pageFields(f) as never);
			done(ctx.out, `Created status page ${p.id} "${p.title}" (/${p.slug})`, p);
		})
	);
	pageOptions(pages.command('update <id>')).action(
		wrap(async (ctx, id: string, f: PageFlags) => {
			const fields = pageFields(f);
			if (Object.keys(fields).length === 0)
				throw usageError('nothing to change', 'pass the fields to change, e.g. --title');
			const p = await ctx
				.api()
				.call('statusPage.update', { pageId: parseId(id), ...fields } as never);
			done(ctx.out, `Updated status page ${p.id} "${p.title}"`, p);
		})
	);
	pages
		.command('delete <id>')
		.description('delete a page with its components, reports and subscribers')
		.action(
			wrap(async (ctx, id: string) =>
				done(
					ctx.out,
					`Deleted status page ${id}`,
					await ctx.api().call('statusPage.remove', { pageId: parseId(id) })
				)
			)
		);

	const components = program
		.command('components')
		.description("a status page's components and groups");
	components
		.command('list')
		.requiredOption('--page <id>', 'status page id', parseId)
		.action(
			wrap(async (ctx, f: { page: number }) => {
				const { data } = await ctx.api().call('pageComponent.list', { pageId: f.page });
				printList(
					ctx.out,
					data,
					[
						{ header: 'ID', value: (c) => c.id },
						{ header: 'NAME', value: (c) => c.name },
						{ header: 'TYPE', value: (c) => c.type },
						{ header: 'MONITOR', value: (c) => c.monitor?.name },
						{ header: 'GROUP', value: (c) => c.group_id },
						{ header: 'ORDER', value: (c) => c.order }
					],
					'No components on this page.'
				);
			})
		);
	componentOptions(
		components
			.command('create')
			.requiredOption('--page <id>', 'status page id', parseId)
			.requiredOption('--type <type>', 'monitor or static')
	).action(
		wrap(async (ctx, f: ComponentFlags & { page: number; type: string }) => {
			const c = await ctx.api().call('pageComponent.create', {
				pageId: f.page,
				type: f.type,
				...componentFields(f)
			} as never);
			done(ctx.out, `Created component ${c.id} "${c.name}" on page ${c.page_id}`, c);
		})
	);
	componentOptions(components.command('update <id>')).action(
		wrap(async (ctx, id: string, f: ComponentFlags) => {
			const c = await ctx
				.api()
				.call('pageComponent.update', { componentId: parseId(id), ...componentFields(f) } as never);
			done(ctx.out, `Updated component ${c.id} "${c.name}"`, c);
		})
	);
	components
		.command('delete <id>')
		.action(
			wrap(async (ctx, id: string) =>
				done(
					ctx.out,
					`Deleted component ${id}`,
					await ctx.api().call('pageComponent.remove', { componentId: parseId(id) })
				)
			)
		);
	const groups = components.command('groups').description('component groups of a page');
	groups
		.command('list')
		.requiredOption('--page <id>', 'status page id', parseId)
		.action(
			wrap(async (ctx, f: { page: number }) => {
				const { data } = await ctx.api().call('componentGroup.list', { pageId: f.page });
				printList(
					ctx.out,
					data,
					[
						{ header: 'ID', value: (g) => g.id },
						{ header: 'NAME', value: (g) => g.name }
					],
					'No groups on this page.'
				);
			})
		);
	groups
		.command('create')
		.requiredOption('--page <id>', 'status page id', parseId)
		.requiredOption('--name <name>')
		.action(
			wrap(async (ctx, f: { page: number; name: string }) => {
				const g = await ctx.api().call('componentGroup.create', { pageId: f.page, name: f.name });
				done(ctx.out, `Created group ${g.id} "${g.name}"`, g);
			})
		);
	groups
		.command('update <id>')
		.requiredOption('--name <name>')
		.action(
			wrap(async (ctx, id: string, f: { name: string }) => {
				const g = await ctx
					.api()
					.call('componentGroup.update', { groupId: parseId(id), name: f.name });
				done(ctx.out, `Renamed group ${g.id} to "${g.name}"`, g);
			})
		);
	groups
		.command('delete <id>')
		.action(
			wrap(async (ctx, id: string) =>
				done(
					ctx.out,
					`Deleted group ${id}`,
					await ctx.api().call('componentGroup.remove', { groupId: parseId(id) })
				)
			)
		);
};
