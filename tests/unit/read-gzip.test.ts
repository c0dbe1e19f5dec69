// The .gz reader (read/gzip.ts) against node:zlib, which wrote the files: the bytes inside, whatever
// the chunks they arrive in; anything that is not gzip passed through untouched; a broken file an
// error of the stream (the readers say "reading failed at byte N"), never a hang.
import fc from 'fast-check';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gunzipped } from '$lib/read/gzip';
import { streamOf } from './records-fixtures';

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
	const chunks: Uint8Array[] = [];
	const reader = stream.getReader();
	for (let next = await reader.read(); !next.done; next = await reader.read())
		chunks.push(next.value);
	return Uint8Array.from(chunks.flatMap((chunk) => Array.from(chunk)));
}

describe('gunzipped', () => {
	it('gives the bytes node:zlib compressed, in any chunks, one member or several', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(fc.uint8Array({ maxLength: 3000 }), { minLength: 1, maxLength: 3 }),
				fc.integer({ min: 1, max: 5000 }),
				async (members, size) => {
					const gz = Uint8Array.from(members.flatMap((member) => Array.from(gzipSync(member))));
					const expected = Uint8Array.from(members.flatMap((member) => Array.from(member)));
					expect(await bytesOf(gunzipped(streamOf(gz, size)))).toEqual(expected);
				}
			),
			{ numRuns: 60 }
		);
	});

	it('passes anything else through as it is: empty, one byte, a lone 0x1f, text', async () => {
		for (const bytes of [[], [0x1f], [0x41], [0x1f, 0x41, 0x42], Array.from(Buffer.from('a\nb'))]) {
			const input = Uint8Array.from(bytes);
			for (const size of [1, 2, 64])
				expect(await bytesOf(gunzipped(streamOf(input, size)))).toEqual(input);
		}
	});

	it('fails the stream on a broken or cut file, after what it could read', async () => {
		const broken = Uint8Array.from([
			0x1f, 0x8b, 0x08, 0x00, 0xff, 0xff, 0xff, 0xff, 0x00, 0x03, 0x42
		]);
		await expect(bytesOf(gunzipped(streamOf(broken, 3)))).rejects.toThrow();
		const gz = gzipSync(Buffer.from('x'.repeat(100_000)));
		await expect(bytesOf(gunzipped(streamOf(gz.subarray(0, gz.length - 6), 7)))).rejects.toThrow();
	});

	it('lets the source go when the reader cancels', async () => {
		let cancelled = false;
		const source = new ReadableStream<Uint8Array>({
			pull: (controller) => controller.enqueue(new Uint8Array(1024).fill(0x41)),
			cancel: () => void (cancelled = true)
		});
		const reader = gunzipped(source).getReader();
		await reader.read();
		await reader.cancel();
		expect(cancelled).toBe(true);
	});
});
