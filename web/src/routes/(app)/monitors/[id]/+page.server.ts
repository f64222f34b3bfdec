import { redirect } from '@sveltejs/kit';
import { getUpstate } from '@upstate/server';
import { actionError, loadError } from '$lib/server/errors';
import { formValues, id } from '$lib/server/form';
import { monitorInput } from '$lib/server/monitor-form';
import { loadMonitorLive } from '$lib/server/monitor-live';
import type { Actions, PageServerLoad } from './$types';

const WINDOWS = ['1d', '7d', '14d'] as const;
const LOGS_PER_PAGE = 20;

// The window (?window=), chart location (?location=) and log page (?offset=) live in the URL, so
// every switch is a plain link that works without JS.
export const load: PageServerLoad = async ({ locals, params, url }) => {
	const monitorId = id(params.id);
	const asked = url.searchParams.get('window');
	const window = WINDOWS.find((w) => w === asked) ?? '1d';
	const locationId = positive(url.searchParams.get('location'));
	const offset = positive(url.searchParams.get('offset')) ?? 0;
	const [monitor, status, summary, day, latency, uptime, live] = await Promise.all([
		locals.api.monitor.get({ monitorId }),
		locals.api.monitor.status({ monitorId }),
		locals.api.monitor.summary({ monitorId, window }),
		locals.api.monitor.summary({ monitorId, window: '1d' }),
		locals.api.monitor.latency({ monitorId, window, locationId }),
		locals.api.monitor.uptime({ monitorId }),
		loadMonitorLive(locals.api, monitorId)
	]).catch(loadError);
	// Response logs are HTTP-only and a plan feature: show them when the plan has them.
	const logs =
		monitor.type === 'http'
			? await locals.api.responseLog
					.list({ monitorId, window, limit: LOGS_PER_PAGE, offset })
					.catch(() => null)
			: null;
	return {
		monitor,
		status,
		window,
		summary,
		day,
		latency,
		uptime: uptime.days,
		locationId,
		logs,
		live,
		now: Date.now()
	};
};

function positive(v: string | null): number | undefined {
	const n = Number(v);
	return v && Number.isInteger(n) && n > 0 ? n : undefined;
}

export const actions: Actions = {
	update: async ({ locals, params, request }) => {
		const values = formValues(await request.formData());
		const { type: _type, ...fields } = monitorInput(values, 'update', getUpstate().config.selfHost);
		try {
			// safe because the router's own schema validates the shape
			await locals.api.monitor.update({ monitorId: id(params.id), ...fields } as Parameters<
				typeof locals.api.monitor.update
			>[0]);
			return { saved: true };
		} catch (err) {
			return actionError(err, values);
		}
	},
	// Pause/resume without touching the settings form. `active` is what the button asks for.
	setActive: async ({ locals, params, request }) => {
		const active = (await request.formData()).get('active') === 'true';
		try {
			await locals.api.monitor.update({ monitorId: id(params.id), active });
		} catch (err) {
			return actionError(err);
		}
		return { activeChanged: active };
	},
	delete: async ({ locals, params }) => {
		try {
			await locals.api.monitor.remove({ monitorId: id(params.id) });
		} catch (err) {
			return actionError(err);
		}
		redirect(303, '/monitors');
	}
};
