// The form posts the ids it showed (`shown_ids`) and those checked (`monitor_ids`): the save
// changes only those, so a monitor the form did not show keeps its assignment.
export function assignmentOf(data: FormData): { add: number[]; remove: number[] } {
	const add = data.getAll('monitor_ids').map(Number);
	const remove = data
		.getAll('shown_ids')
		.map(Number)
		.filter((id) => !add.includes(id));
	return { add, remove };
}
