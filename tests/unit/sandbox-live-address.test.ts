import { describe, expect, it } from 'vitest';
import { serverBase } from '$lib/sandbox/live/address';

describe('serverBase: the sandbox server address as typed', () => {
	it('keeps scheme, host, port and path, without trailing slashes or spaces', () => {
		expect(serverBase(' http://127.0.0.1:8787/ ')).toEqual({ url: 'http://127.0.0.1:8787' });
		expect(serverBase('http://localhost:9000/sandbox//')).toEqual({
			url: 'http://localhost:9000/sandbox'
		});
		// Without a scheme, as one types what the server printed after "listening".
		expect(serverBase('127.0.0.1:8787')).toEqual({ url: 'http://127.0.0.1:8787' });
		expect(serverBase('localhost:8787')).toEqual({ url: 'http://localhost:8787' });
		expect(serverBase('https://sandbox.example.test')).toEqual({
			url: 'https://sandbox.example.test'
		});
	});

	it('says what is wrong with an address the page cannot call', () => {
		expect(serverBase('not an address')).toEqual({ error: 'not-url' });
		expect(serverBase('ftp://127.0.0.1')).toEqual({ error: 'not-http' });
	});
});
