// Which text a file's bytes are, told from its first bytes: UTF-8 (with or without a byte-order
// mark) and UTF-16 (a mark, or ASCII with every other byte zero) are read; UTF-32, compressed
// archives and binary data are refused with their name, before anything is decoded as a log. A
// UTF-16 mark before bytes that are UTF-8 (a tool wrote the mark, then the log as UTF-8) is a
// stray mark: what follows is read as UTF-8, not decoded into nothing. NUL bytes in text (a log
// cut short by a crash is padded with them) do not make the file binary: the reader drops the
// lines they fall in.

/** The encodings read. */
export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

/** What the first bytes say: an encoding to read and the byte-order mark to skip, or a refusal. */
export type Sniffed =
	| { encoding: TextEncoding; skip: number }
	| {
			refused: 'encoding' | 'compressed' | 'binary';
			/** The encoding or format found, as people name it; empty for binary data. */
			found: string;
			/** Where it was seen: 0 for a signature, the first NUL byte for binary data. */
			at: number;
	  };

/** Bytes looked at: enough for every signature and a fair look for NUL bytes. */
export const SNIFF_BYTES = 4096;

const starts = (bytes: Uint8Array, signature: readonly number[]) =>
	bytes.length >= signature.length && signature.every((byte, index) => bytes[index] === byte);

// Archives and compressed files a customer may send instead of the log inside them.
const COMPRESSED: readonly [string, readonly number[]][] = [
	['gzip', [0x1f, 0x8b]],
	['zip', [0x50, 0x4b, 0x03, 0x04]],
	['zstd', [0x28, 0xb5, 0x2f, 0xfd]],
	['xz', [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]],
	['7z', [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]],
	// "BZh", the block size, then the block's magic: text that starts "BZh" is not refused.
	['bzip2', [0x42, 0x5a, 0x68]]
];

/** A printable ASCII byte or white space: what a log's first characters are. */
const textual = (byte: number | undefined) =>
	byte !== undefined &&
	((byte >= 0x20 && byte < 0x7f) || byte === 0x09 || byte === 0x0a || byte === 0x0d);

/** Whether every `width`-byte unit of the start holds one textual byte at `at` and zeros elsewhere. */
function unitsOf(bytes: Uint8Array, width: number, at: number): boolean {
	const units = Math.min(Math.floor(bytes.length / width), 8);
	if (units < 2) return false;
	for (let unit = 0; unit < units; unit++) {
		for (let index = 0; index < width; index++) {
			const byte = bytes[unit * width + index];
			if (index === at ? !textual(byte) : byte !== 0) return false;
		}
	}
	return true;
}

/** Tells the encoding from the file's first bytes (up to SNIFF_BYTES; all of a shorter file). */
export function sniffEncoding(bytes: Uint8Array): Sniffed {
	for (const [found, signature] of COMPRESSED) {
		if (!starts(bytes, signature)) continue;
		if (
			found !== 'bzip2' ||
			(starts(bytes.subarray(4), [0x31, 0x41, 0x59, 0x26, 0x53, 0x59]) &&
				bytes[3] !== undefined &&
				bytes[3] >= 0x31 &&
				bytes[3] <= 0x39)
		)
			return { refused: 'compressed', found, at: 0 };
	}
	// UTF-32 LE's mark starts as UTF-16 LE's does: it is looked for first.
	if (starts(bytes, [0xff, 0xfe, 0x00, 0x00]) || unitsOf(bytes, 4, 0))
		return { refused: 'encoding', found: 'UTF-32LE', at: 0 };
	if (starts(bytes, [0x00, 0x00, 0xfe, 0xff]) || unitsOf(bytes, 4, 3))
		return { refused: 'encoding', found: 'UTF-32BE', at: 0 };
	if (starts(bytes, [0xef, 0xbb, 0xbf])) return { encoding: 'utf-8', skip: 3 };
	if (starts(bytes, [0xff, 0xfe]))
		return strayMark(bytes) ? { encoding: 'utf-8', skip: 2 } : { encoding: 'utf-16le', skip: 2 };
	if (starts(bytes, [0xfe, 0xff]))
		return strayMark(bytes) ? { encoding: 'utf-8', skip: 2 } : { encoding: 'utf-16be', skip: 2 };
	// Without a mark, text in UTF-16 still shows itself: ASCII with a zero byte beside each.
	if (unitsOf(bytes, 2, 0)) return { encoding: 'utf-16le', skip: 0 };
	if (unitsOf(bytes, 2, 1)) return { encoding: 'utf-16be', skip: 0 };
	const nul = binaryAt(bytes.subarray(0, SNIFF_BYTES));
	if (nul !== -1) return { refused: 'binary', found: '', at: nul };
	return { encoding: 'utf-8', skip: 0 };
}

/**
 * Whether a UTF-16 mark is followed by UTF-8 rather than UTF-16: no NUL byte in what follows (a log
 * in UTF-16 has ASCII in its first kilobytes, a line break at least, each beside a zero byte) and
 * valid UTF-8 there.
 */
function strayMark(bytes: Uint8Array): boolean {
	const rest = bytes.subarray(2, SNIFF_BYTES);
	if (rest.length === 0 || rest.indexOf(0) !== -1) return false;
	try {
		new TextDecoder('utf-8', { fatal: true }).decode(
			rest.subarray(0, rest.length - incompleteTail(rest, 'utf-8'))
		);
		return true;
	} catch {
		return false;
	}
}

/**
 * Where binary data shows in the first bytes: the first NUL byte, when the bytes other than NULs
 * are not text (more than 1 in 20 control bytes, or none at all). NULs among text are a padded log's,
 * not a sign of binary data: -1.
 */
function binaryAt(bytes: Uint8Array): number {
	const nul = bytes.indexOf(0);
	if (nul === -1) return -1;
	let other = 0;
	let control = 0;
	for (const byte of bytes) {
		if (byte === 0) continue;
		other += 1;
		// Tab, LF, FF, CR and ESC (a terminal's colours) are a log's.
		if (
			(byte < 0x20 &&
				byte !== 0x09 &&
				byte !== 0x0a &&
				byte !== 0x0c &&
				byte !== 0x0d &&
				byte !== 0x1b) ||
			byte === 0x7f
		)
			control += 1;
	}
	return other === 0 || control * 20 > other ? nul : -1;
}

/**
 * How many bytes at the end of `bytes` begin a character that the next bytes complete: they are
 * kept for the next chunk, so that every chunk decodes on its own to exactly its bytes' text.
 */
export function incompleteTail(bytes: Uint8Array, encoding: TextEncoding): number {
	const length = bytes.length;
	if (encoding !== 'utf-8') {
		let tail = length % 2;
		// A high surrogate waits for its low one.
		const high = encoding === 'utf-16le' ? length - tail - 1 : length - tail - 2;
		const unit = bytes[high];
		if (length - tail >= 2 && unit !== undefined && unit >= 0xd8 && unit <= 0xdb) tail += 2;
		return tail;
	}
	// The last byte that is not a continuation byte (10xxxxxx) starts the last character.
	for (let back = 1; back <= Math.min(3, length); back++) {
		const byte = bytes[length - back] as number;
		if ((byte & 0xc0) === 0x80) continue;
		const needs = byte >= 0xf0 && byte <= 0xf4 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc2 ? 2 : 1;
		return byte < 0xc2 || byte > 0xf4 || needs <= back ? 0 : back;
	}
	return 0;
}

/** The number of bytes `text` takes in `encoding` (a replaced invalid byte counts as U+FFFD's 3). */
export function encodedLength(text: string, encoding: TextEncoding): number {
	if (encoding !== 'utf-8') return text.length * 2;
	let bytes = 0;
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (code < 0x80) bytes += 1;
		else if (code < 0x800) bytes += 2;
		else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
			const next = text.charCodeAt(index + 1);
			if (next >= 0xdc00 && next <= 0xdfff) {
				bytes += 4;
				index += 1;
			} else bytes += 3;
		} else bytes += 3;
	}
	return bytes;
}
