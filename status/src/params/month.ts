import type { ParamMatcher } from '@sveltejs/kit';

// A history listing's first month, YYYY-MM (UTC); anything else is not a route.
export const match: ParamMatcher = (param) => /^\d{4}-(0[1-9]|1[0-2])$/.test(param);
