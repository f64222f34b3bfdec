import {
	IncidentIdInput,
	IncidentListOutput,
	IncidentOutput,
	ListIncidentsInput,
	acknowledgeIncident,
	getIncident,
	listIncidents,
	resolveIncident
} from '../domain/incident/index.ts';
import { createTRPCRouter, readProcedure, writeProcedure } from './trpc.ts';

const tags = ['incidents'];

export const incidentRouter = createTRPCRouter({
	list: readProcedure
		.meta({
			rest: { method: 'GET', path: '/v1/incidents', summary: 'List incidents, newest first', tags }
		})
		.input(ListIncidentsInput)
		.output(IncidentListOutput)
		.query(({ ctx, input }) => listIncidents({ ctx: ctx.service, input })),
	get: readProcedure
		.meta({
			rest: { method: 'GET', path: '/v1/incidents/{incidentId}', summary: 'Get an incident', tags }
		})
		.input(IncidentIdInput)
		.output(IncidentOutput)
		.query(({ ctx, input }) => getIncident({ ctx: ctx.service, input })),
	acknowledge: writeProcedure
		.meta({
			rest: {
				method: 'POST',
				path: '/v1/incidents/{incidentId}/acknowledge',
				summary: 'Acknowledge an open incident',
				tags
			}
		})
		.input(IncidentIdInput)
		.output(IncidentOutput)
		.mutation(({ ctx, input }) => acknowledgeIncident({ ctx: ctx.service, input })),
	resolve: writeProcedure
		.meta({
			rest: {
				method: 'POST',
				path: '/v1/incidents/{incidentId}/resolve',
				summary: 'Resolve an incident by hand (no notification is sent)',
				tags
			}
		})
		.input(IncidentIdInput)
		.output(IncidentOutput)
		.mutation(({ ctx, input }) => resolveIncident({ ctx: ctx.service, input }))
});
