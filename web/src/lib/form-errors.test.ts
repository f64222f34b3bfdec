import { describe, expect, it } from 'vitest';
import { fieldAria, fieldMessages, humanMessage } from './form-errors';

describe('humanMessage', () => {
	it('names the field as labelled and says what to enter', () => {
		expect(humanMessage('Target', 'Invalid input: expected number, received NaN')).toBe(
			'Target: enter a number.'
		);
		expect(humanMessage('Name', 'Too big: expected string to have <=256 characters')).toBe(
			'Name: use at most 256 characters.'
		);
		expect(humanMessage('Name', 'Too small: expected string to have >=1 characters')).toBe(
			'Name: enter a value.'
		);
		expect(humanMessage('Retries', 'Too big: expected number to be <=10')).toBe(
			'Retries: enter 10 or less.'
		);
		expect(humanMessage('Frequency', 'Invalid option: expected one of "30s"|"1m"')).toBe(
			'Frequency: choose one of the options.'
		);
	});
	it('keeps a message written for people, lower-cased after the label', () => {
		expect(humanMessage('Target', 'Must be host:port, e.g. db.example.com:5432')).toBe(
			'Target: must be host:port, e.g. db.example.com:5432.'
		);
	});
});

describe('field errors', () => {
	const issues = [
		{ path: 'name', message: 'Too big' },
		{ path: 'name', message: 'Too big' },
		{ path: 'status_code_assertions.0.target', message: 'x' }
	];
	it('each message once, children included', () => {
		expect(fieldMessages(issues, 'name')).toEqual(['Too big']);
		expect(fieldMessages(issues, 'status_code_assertions')).toEqual(['x']);
		expect(fieldMessages(issues, 'url')).toEqual([]);
	});
	it('links an invalid input to its error, then its hint', () => {
		expect(fieldAria(issues, 'name', 'name-hint')).toEqual({
			'aria-invalid': 'true',
			'aria-describedby': 'name-error name-hint'
		});
		expect(fieldAria(issues, 'url')).toEqual({
			'aria-invalid': undefined,
			'aria-describedby': undefined
		});
	});
});
