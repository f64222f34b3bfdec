import { describe, expect, it } from 'vitest';
import { resolveTheme } from './theme.ts';

describe('resolveTheme', () => {
	it('merges custom light/dark variables over the theme', () => {
		const t = resolveTheme({
			theme: 'ocean',
			customTheme: JSON.stringify({
				light: { '--primary': '#ff0000' },
				dark: { '--card': 'black' }
			}),
			allowCustom: true
		});
		expect(t.light['--primary']).toBe('#ff0000');
		expect(t.light['--background']).toBe('oklch(0.98 0.01 230)');
		expect(t.dark).toMatchObject({ '--card': 'black', '--primary': 'oklch(0.72 0.12 230)' });
	});
	it('drops unsafe names and values', () => {
		const t = resolveTheme({
			theme: 'default',
			customTheme: JSON.stringify({
				light: {
					color: 'red',
					'--a': 'red;} body{display:none',
					'--b': 'url(https://evil.test/x)',
					'--c': '</style><script>',
					'--ok': 'rgb(1, 2, 3)'
				}
			}),
			allowCustom: true
		});
		expect(t.light).toEqual({ '--ok': 'rgb(1, 2, 3)' });
	});
	it('ignores custom_theme without the plan feature and unknown theme keys', () => {
		const t = resolveTheme({
			theme: 'nope',
			customTheme: JSON.stringify({ light: { '--primary': 'red' } }),
			allowCustom: false
		});
		expect(t).toEqual({ light: {}, dark: {} });
	});
});
