// The diagnosis's table of base strings tried (text-table.ts) and the UTF-8 writer it shares with
// the bulk HMAC (mac/utf8-into.ts): a base string is found again exactly when its text is the
// same, whatever its hash, and the signer given its UTF-8 signs what the signer given its text does;
// the UTF-8 scratches go back for the next diagnosis as each one ends.
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Into } from '$lib/mac/utf8-into';
import { TextTable, Utf8Scratch } from '$lib/diagnosis/text-table';
import { syncDigests } from '$lib/triage/hmac';
import { firstExplanationId } from '$lib/diagnosis/diagnose';
import { zooInputs } from './zoo-inputs';

describe('utf8Into', () => {
	it('writes what TextEncoder writes, by TextEncoder or by its own ASCII copy', () => {
		fc.assert(
			fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
				const expected = new TextEncoder().encode(text);
				for (const encodeInto of [true, false]) {
					const into = new Uint8Array(text.length * 3 + 8);
					const written = utf8Into(text, into, encodeInto);
					expect(into.subarray(0, written)).toEqual(expected);
				}
			})
		);
	});
});

describe('TextTable', () => {
	it('gives the same entry for the same text and a new one for another, past many growths', () => {
		const scratch = new Utf8Scratch();
		const table = new TextTable<{ text: string }>();
		const texts = Array.from(
			{ length: 2000 },
			(_, i) => `1780000000\nnonce\nGET\n/p?i=${i}\nh\n443\n\n`
		);
		const entries = texts.map((text) => table.find(text, scratch.write(text), () => ({ text })));
		expect(new Set(entries).size).toBe(texts.length);
		texts.forEach((text, i) => {
			// Another string object with the same text: found again, not made anew.
			const again = [...text].join('');
			expect(table.find(again, scratch.write(again), () => ({ text: 'new' }))).toBe(entries[i]);
		});
	});

	it('tells apart texts that share a hash', () => {
		const table = new TextTable<string>();
		expect(table.find('a', 7, () => 'first')).toBe('first');
		expect(table.find('b', 7, () => 'second')).toBe('second');
		expect(table.find('a', 7, () => 'again')).toBe('first');
		expect(table.find('b', 7, () => 'again')).toBe('second');
	});

	it('hashes a text by its UTF-8 alone: the bytes left after a longer one do not count', () => {
		const scratch = new Utf8Scratch();
		const short = scratch.write('abcde');
		scratch.write('abcdefghijklmnop');
		expect(scratch.write('abcde')).toBe(short);
		expect(scratch.length).toBe(5);
	});
});

describe("the diagnosis signer's UTF-8 path", () => {
	it('signs what the text path signs, for text and byte keys, SHA-1 and SHA-256', () => {
		const sign = syncDigests();
		const scratch = new Utf8Scratch();
		for (const text of ['', 'a', '1780000000\nbm9uY2U\nGET\n/x?é=中\nh\n443\n\n', 'x'.repeat(300)])
			for (const key of ['k7Qx2mZpR4vN8sLw', new Uint8Array([1, 2, 3])])
				for (const hash of ['SHA-1', 'SHA-256'] as const) {
					scratch.write(text);
					const bytes = sign.utf8?.(key, scratch.bytes, scratch.length, hash).bytes;
					const node = createHmac(hash === 'SHA-1' ? 'sha1' : 'sha256', key)
						.update(text, 'utf8')
						.digest();
					expect(Buffer.from(bytes ?? [])).toEqual(node);
					expect(Buffer.from((sign(key, text, hash) as { bytes: Uint8Array }).bytes)).toEqual(node);
				}
	});
});

describe('the scratches diagnoses share', () => {
	it('are taken again once given back, but never one grown for a huge text', () => {
		const first = Utf8Scratch.take();
		first.giveBack();
		expect(Utf8Scratch.take()).toBe(first);
		const grown = Utf8Scratch.take();
		grown.write('x'.repeat(100_000));
		grown.giveBack();
		expect(Utf8Scratch.take()).not.toBe(grown);
	});

	it('are given back as each diagnosis ends, whatever it found', async () => {
		const signer = syncDigests();
		for (const { input } of zooInputs().slice(0, 12)) {
			// None spare (a new one is empty): the diagnosis takes a new one, and gives it back with
			// its last text in it.
			while (Utf8Scratch.take().length > 0) continue;
			await firstExplanationId(input, { hmac: signer });
			expect(Utf8Scratch.take().length).toBeGreaterThan(0);
		}
	});
});
