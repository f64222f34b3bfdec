import type { ServiceContext } from '../context.ts';
import { csvLine } from './csv.ts';
import { listSubscribers } from './list.ts';
import type { ListSubscribersInput } from './schemas.ts';

// The Subscribers tab's CSV export: one row per subscriber, same scope and tenancy as the list.
export async function exportSubscribersCsv(args: {
	ctx: ServiceContext;
	input: ListSubscribersInput;
}): Promise<string> {
	const { data } = await listSubscribers(args);
	return [
		csvLine(['id', 'type', 'email', 'webhook_url', 'components', 'status', 'created_at']),
		...data.map((s) =>
			csvLine([
				String(s.id),
				s.type,
				s.email ?? '',
				s.webhookUrl ?? '',
				s.componentIds.join(' '),
				s.status,
				s.createdAt
			])
		)
	].join('');
}
