import { describe, expect, it } from 'vitest';
import { httpUrl } from '$lib/send/safe-url';

describe('httpUrl', () => {
	it('accepts http and https URLs', () => {
		expect(httpUrl('https://cdn.example/a.png')).toBe('https://cdn.example/a.png');
		expect(httpUrl('http://127.0.0.1:4173/avatars/ada.svg')).toBe(
			'http://127.0.0.1:4173/avatars/ada.svg'
		);
	});

	it.each([
		'javascript:alert(1)',
		'data:image/svg+xml,<svg onload=alert(1)>',
		'vbscript:x',
		'//evil.example/a.png',
		'/relative.png',
		'not a url',
		''
	])('refuses %j', (text) => expect(httpUrl(text)).toBeNull());
});
