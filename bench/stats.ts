import { readFileSync } from 'node:fs';

export const pct = (sorted: number[], p: number): number =>
	sorted.length
		? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
		: Number.NaN;
export const fmt = (n: number): string => n.toFixed(2);

// CPU time (utime + stime) of a process in ms; Linux clock ticks are 10 ms.
export function processCpuMs(pid: number): number {
	const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
	return (Number(fields[11]) + Number(fields[12])) * 10;
}

// Resident set size of a process in MB (NaN once it has exited).
export function processRssMb(pid: number): number {
	try {
		const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
		return kb ? Number(kb) / 1024 : Number.NaN;
	} catch {
		return Number.NaN;
	}
}
