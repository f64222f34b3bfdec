import { getUpstate, handleSlackInstall } from '@upstate/server';
import type { RequestHandler } from './$types';

// "Add to Slack": to Slack's OAuth v2 authorize page (owners and admins, plan with slack-agent).
export const GET: RequestHandler = ({ locals, url }) =>
	handleSlackInstall({ upstate: getUpstate(), ctx: locals.ctx, step: 'start', url });
