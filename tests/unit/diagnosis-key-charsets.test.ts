// The bytes a platform makes of a mac_key's text in another charset than UTF-8. Every expected value
// was printed by the runtime itself: Mono 6.8 (Encoding.ASCII.GetBytes) and OpenJDK 17
// (String.getBytes with US-ASCII, ISO-8859-1 and GBK, also as the platform charset, -Dfile.encoding).
import { describe, expect, it } from 'vitest';
import {
	asciiPerCodeUnit,
	gbkBytes,
	hasLatin1Only,
	hasNonAscii,
	hasSurrogatePair,
	singleBytePerCharacter
} from '$lib/diagnosis/key-charsets';

const hex = (bytes: Uint8Array | null) =>
	bytes === null ? null : Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join(' ');

describe('a mac_key in another charset', () => {
	it.each([
		// text, .NET ASCII, Java US-ASCII, Java ISO-8859-1, Java GBK
		['é', '3f', '3f', 'e9', 'a8 a6'],
		['中', '3f', '3f', '3f', 'd6 d0'],
		['😀', '3f 3f', '3f', '3f', '3f'],
		['a\uD800b', '61 3f 62', '61 3f 62', '61 3f 62', '61 3f 62'],
		['ÿ', '3f', '3f', 'ff', '3f'],
		['\u0080', '3f', '3f', '80', '3f'],
		['€', '3f', '3f', '3f', 'a2 e3'],
		['·', '3f', '3f', 'b7', 'a1 a4'],
		[
			'zoo-clé-密钥-ü',
			'7a 6f 6f 2d 63 6c 3f 2d 3f 3f 2d 3f',
			'7a 6f 6f 2d 63 6c 3f 2d 3f 3f 2d 3f',
			'7a 6f 6f 2d 63 6c e9 2d 3f 3f 2d fc',
			'7a 6f 6f 2d 63 6c a8 a6 2d c3 dc d4 bf 2d a8 b9'
		]
	])(
		'%s: .NET ASCII %s, Java US-ASCII %s, ISO-8859-1 %s, GBK %s',
		(key, dotnet, ascii, latin1, gbk) => {
			expect(hex(asciiPerCodeUnit(key))).toBe(dotnet);
			expect(hex(singleBytePerCharacter(key, 0x7f))).toBe(ascii);
			expect(hex(singleBytePerCharacter(key, 0xff))).toBe(latin1);
			expect(hex(gbkBytes(key))).toBe(gbk);
		}
	);

	it('agrees with Java 17 where the platform decoder differs from its GBK encoder', () => {
		// Java encodes U+2641 as A8 92 and has no code for U+2295 nor U+E76C (the decoder's A8 92, A2 E3).
		expect(hex(gbkBytes('\u2641\u2295\uE76C'))).toBe('a8 92 3f 3f');
	});

	it('tells which keys each encoding changes', () => {
		expect([hasNonAscii('abc'), hasNonAscii('é'), hasNonAscii('中')]).toEqual([false, true, true]);
		expect([hasLatin1Only('中'), hasLatin1Only('中é')]).toEqual([false, true]);
		expect([hasSurrogatePair('中'), hasSurrogatePair('😀'), hasSurrogatePair('\uD800')]).toEqual([
			false,
			true,
			false
		]);
	});
});
