import { getUpstate, handleSlackInstall } from '@upstate/server';
import type { RequestHandler } from './$types';

// Slack's redirect back after "Add to Slack": state checked, code exchanged, team linked.
export const GET: RequestHandler = ({ locals, url }) =>
	handleSlackInstall({ upstate: getUpstate(), ctx: locals.ctx, step: 'callback', url });
