import { describe, expect, it } from 'vitest';
import { hexDump } from '$lib/playground/hex-dump';

describe('hexDump', () => {
	it('shows offset, hex and printable ASCII, 16 bytes a row', () => {
		const rows = hexDump(new TextEncoder().encode('1336363200\ndj83hs9s\n'));
		expect(rows).toEqual([
			{
				offset: '0000',
				hex: '31 33 33 36 33 36 33 32 30 30 0a 64 6a 38 33 68',
				ascii: '1336363200.dj83h'
			},
			{ offset: '0010', hex: '73 39 73 0a', ascii: 's9s.' }
		]);
	});

	it('is empty for no bytes', () => {
		expect(hexDump(new Uint8Array())).toEqual([]);
	});
});
