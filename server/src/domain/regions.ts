// The 28 region identifiers of spec 2.10, in the dashed form monitors use.
export const REGIONS = [
	'a-ams',
	'a-arn',
	'a-bom',
	'a-cdg',
	'a-dfw',
	'a-ewr',
	'a-fra',
	'a-gru',
	'a-iad',
	'a-jnb',
	'a-lax',
	'a-lhr',
	'a-nrt',
	'a-ord',
	'a-sjc',
	'a-sin',
	'a-syd',
	'a-yyz',
	'b-fra',
	'b-par',
	'b-sfo',
	'b-sin',
	'b-tyo',
	'b-was',
	'c-us-west2',
	'c-us-east4',
	'c-europe-west4',
	'c-asia-southeast1'
] as const;
export type Region = (typeof REGIONS)[number];

// Workspace `limits.regions` lists regions in the underscore form: group A bare (`ams`),
// groups B and C prefixed (`b_fra`, `c_us-west2-a` with a zone suffix we match by prefix).
export function isRegionAllowed(region: Region, allowed: string[]): boolean {
	const [group, ...rest] = region.split('-');
	const name = rest.join('-');
	return allowed.some((entry) =>
		group === 'a'
			? entry === name
			: entry === `${group}_${name}` || entry.startsWith(`${group}_${name}-`)
	);
}

export function toLimitRegion(region: Region): string {
	const [group, ...rest] = region.split('-');
	return group === 'a' ? rest.join('-') : `${group}_${rest.join('-')}`;
}
