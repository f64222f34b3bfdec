import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(
	createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
	'utf8'
);

type Impact = 'minor' | 'moderate' | 'serious' | 'critical';

// axe-core's violations on the page as readable lines (rule, help, the offending markup),
// only those at `impacts` when given.
export async function axe(page: Page, impacts?: Impact[]): Promise<string[]> {
	await page.addScriptTag({ content: axeSource });
	return page.evaluate(async (keep) => {
		const w = window as unknown as {
			axe: {
				run: () => Promise<{
					violations: { id: string; help: string; impact: string; nodes: unknown[] }[];
				}>;
			};
		};
		const result = await w.axe.run();
		return result.violations
			.filter((v) => !keep || (keep as string[]).includes(v.impact))
			.map(
				(v) =>
					`${v.id}: ${v.help} ${JSON.stringify(v.nodes.map((x) => (x as { html: string; failureSummary: string }).html + ' ' + (x as { failureSummary: string }).failureSummary))}`
			);
	}, impacts ?? null);
}
