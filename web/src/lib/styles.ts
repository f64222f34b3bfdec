// Class lists shared by the dashboard's forms and tables.
export const input = 'border-border bg-card mt-1 block w-full rounded-md border px-3 py-2 text-sm';
export const label = 'block text-sm font-medium';
export const button =
	'bg-primary text-primary-foreground rounded-md px-4 py-2 text-sm font-medium hover:opacity-90';
export const buttonGhost = 'border-border rounded-md border px-3 py-1.5 text-sm hover:bg-muted';
export const buttonDanger =
	'text-destructive border-destructive rounded-md border px-3 py-1.5 text-sm hover:bg-muted';
export const card = 'bg-card border-border rounded-lg border p-5';
// `data-table` stacks rows into a list on phones (app.css); cells may carry `data-label`.
export const table = 'data-table w-full text-left text-sm';
