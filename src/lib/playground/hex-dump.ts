export interface HexRow {
	offset: string;
	hex: string;
	ascii: string;
}

/** Rows of 16 bytes: offset, bytes in hex, and the printable ASCII beside them (others as "."). */
export function hexDump(bytes: Uint8Array, width = 16): HexRow[] {
	const rows: HexRow[] = [];
	for (let start = 0; start < bytes.length; start += width) {
		const chunk = Array.from(bytes.subarray(start, start + width));
		rows.push({
			offset: start.toString(16).padStart(4, '0'),
			hex: chunk.map((byte) => byte.toString(16).padStart(2, '0')).join(' '),
			ascii: chunk
				.map((byte) => (byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : '.'))
				.join('')
		});
	}
	return rows;
}
