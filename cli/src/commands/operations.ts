import type { Command } from 'commander';
import { listAll } from '../api.ts';
import { collect, parseId, parseIds } from '../context.ts';
import { CliError, usageError } from '../errors.ts';
import { done, printList, printRecord } from '../io.ts';
import type { Register } from '../program.ts';
import { readJsonOrYaml } from './input.ts';

// `--set key=value` pairs: a provider block's fields or a location's metadata.
function pairs(list: string[] | undefined): Record<string, string> {
	return Object.fromEntries(
		(list ?? []).map((p) => {
			const at = p.indexOf('=');
			if (at < 1) throw usageError(`"${p}" is not key=value`, 'write each as --set key=value');
			return [p.slice(0, at), p.slice(at + 1)];
		})
	);
}

type ChannelFlags = {
	file?: string;
	name?: string;
	provider?: string;
	monitor?: number[];
	set?: string[];
};
const channelOptions = (cmd: Command) =>
	cmd
		.option('-f, --file <path>', 'fields as a JSON or YAML object (API field names)')
		.option('--name <name>')
		.option(
			'--monitor <ids>',
			'monitors to alert for, comma-separated (replaces the list)',
			parseIds
		)
		.option(
			'--set <key=value>',
			"a field of the provider's block, e.g. webhook_url=https://… (repeatable)",
			collect
		);
function channelFields(f: ChannelFlags, providerType: string | undefined): Record<string, unknown> {
	const fields: Record<string, unknown> = { ...(f.file ? readJsonOrYaml(f.file) : {}) };
	if (f.name !== undefined) fields.name = f.name;
	if (f.monitor) fields.monitor_ids = f.monitor;
	if (f.set) {
		if (!providerType) throw usageError('--set needs the provider type', 'pass --provider as well');
		fields[providerType] = { ...((fields[providerType] as object) ?? {}), ...pairs(f.set) };
	}
	return fields;
}

export const registerOperations: Register = (program, wrap) => {
	const channels = program
		.command('notifications')
		.description('notification channels and their monitors');
	channels.command('list').action(
		wrap(async (ctx) => {
			const api = ctx.api();
			const rows = await listAll((page) =>
				api.call('notificationChannel.list', { page, perPage: 200 })
			);
			printList(
				ctx.out,
				rows,
				[
					{ header: 'ID', value: (c) => c.id },
					{ header: 'NAME', value: (c) => c.name },
					{ header: 'PROVIDER', value: (c) => c.provider_type },
					{ header: 'MONITORS', value: (c) => c.monitors.map((m) => m.name) }
				],
				'No notification channels.'
			);
		})
	);
	channels
		.command('get <id>')
		.action(
			wrap(async (ctx, id: string) =>
				printRecord(
					ctx.out,
					await ctx.api().call('notificationChannel.get', { notificationChannelId: parseId(id) })
				)
			)
		);
	channelOptions(
		channels
			.command('create')
			.requiredOption('--provider <type>', 'slack, discord, email, webhook, pagerduty, …')
	).action(
		wrap(async (ctx, f: ChannelFlags & { provider: string }) => {
			const c = await ctx.api().call('notificationChannel.create', {
				provider_type: f.provider,
				...channelFields(f, f.provider)
			} as never);
			done(
				ctx.out,
				`Created ${c.provider_type} channel ${c.id}${c.signing_secret ? ` (signing secret, shown once: ${c.signing_secret})` : ''}`,
				c
			);
		})
	);
	channelOptions(
		channels
			.command('update <id>')
			.option('--provider <type>', 'the provider whose block --set changes')
	).action(
		wrap(async (ctx, id: string, f: ChannelFlags) => {
			const channelId = parseId(id);
			const provider =
				f.provider ??
				(f.set
					? (await ctx.api().call('notificationChannel.get', { notificationChannelId: channelId }))
							.provider_type
					: undefined);
			const c = await ctx.api().call('notificationChannel.update', {
				notificationChannelId: channelId,
				...channelFields(f, provider)
			} as never);
			done(ctx.out, `Updated channel ${c.id}`, c);
		})
	);
	channels
		.command('delete <id>')
		.action(
			wrap(async (ctx, id: string) =>
				done(
					ctx.out,
					`Deleted channel ${id}`,
					await ctx.api().call('notificationChannel.remove', { notificationChannelId: parseId(id) })
				)
			)
		);
	channels
		.command('test <id>')
		.description('send a test message through the channel')
		.action(
			wrap(async (ctx, id: string) => {
				const r = await ctx
					.api()
					.call('notificationChannel.sendTest', { notificationChannelId: parseId(id) });
				if (!r.ok)
					throw new CliError(`test message failed (${r.status}): ${r.error ?? 'no detail'}`, {
						hint:
							"check the channel's settings with `upstate notifications get " +
							id +
							'` and update them'
					});
				done(ctx.out, `Test message sent (${r.status})`, r);
			})
		);

	const locations = program.command('locations').description('private locations (probes you run)');
	locations.command('list').action(
		wrap(async (ctx) => {
			const api = ctx.api();
			const rows = await listAll((page) =>
				api.call('privateLocation.list', { page, perPage: 100 })
			);
			printList(
				ctx.out,
				rows,
				[
					{ header: 'ID', value: (l) => l.id },
					{ header: 'NAME', value: (l) => l.name },
					{ header: 'STATUS', value: (l) => l.status },
					{ header: 'MONITORS', value: (l) => l.monitor_count },
					{ header: 'LAST SEEN', value: (l) => l.last_seen_at ?? 'never' }
				],
				'No private locations.'
			);
		})
	);
	locations
		.command('get <id>')
		.description('one location with its agent key (SERVICE_KEY)')
		.action(
			wrap(async (ctx, id: string) =>
				printRecord(
					ctx.out,
					await ctx.api().call('privateLocation.get', { privateLocationId: parseId(id) })
				)
			)
		);
	const locationOptions = (cmd: Command) =>
		cmd
			.option('--monitor <ids>', 'monitors it runs, comma-separated (replaces the list)', parseIds)
			.option('--meta <key=value>', 'a label (repeatable; replaces the labels)', collect);
	locationOptions(locations.command('create').requiredOption('--name <name>')).action(
		wrap(async (ctx, f: { name: string; monitor?: number[]; meta?: string[] }) => {
			const l = await ctx.api().call('privateLocation.create', {
				name: f.name,
				monitor_ids: f.monitor,
				metadata: f.meta ? pairs(f.meta) : undefined
			});
			done(
				ctx.out,
				`Created location ${l.id} "${l.name}"; run a probe with SERVICE_KEY=${l.token}`,
				l
			);
		})
	);
	locationOptions(locations.command('update <id>').option('--name <name>')).action(
		wrap(async (ctx, id: string, f: { name?: string; monitor?: number[]; meta?: string[] }) => {
			const l = await ctx.api().call('privateLocation.update', {
				privateLocationId: parseId(id),
				name: f.name,
				monitor_ids: f.monitor,
				metadata: f.meta ? pairs(f.meta) : undefined
			});
			done(ctx.out, `Updated location ${l.id} "${l.name}"`, l);
		})
	);
	locations
		.command('delete <id>')
		.action(
			wrap(async (ctx, id: string) =>
				done(
					ctx.out,
					`Deleted location ${id}`,
					await ctx.api().call('privateLocation.remove', { privateLocationId: parseId(id) })
				)
			)
		);
};
