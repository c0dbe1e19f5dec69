// Logs rotated as `.gz` (logrotate's compress) are read as they are: a stream whose first bytes are
// gzip's signature is decompressed on the way in, a slice at a time, so that memory holds a slice's
// output, not the log's. fflate's Gunzip reads every member of a file of several (cat a.gz b.gz);
// it does not check a member's trailer, so its length is checked here: a file cut short fails the
// stream (the readers then say where reading failed) instead of ending early as if whole.
import { Gunzip } from 'fflate';

/** Compressed bytes given to the decompressor at once: its output per slice stays a few MiB. */
const SLICE_BYTES = 16_384;

const GZIP = [0x1f, 0x8b] as const;

/** The stream's bytes, decompressed when they are gzip's; as they are otherwise. */
export function gunzipped(stream: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
	const reader = stream.getReader();
	/** Null until the first two bytes tell; false for a stream that is not gzip. */
	let gunzip: Gunzip | false | null = null;
	let head: Uint8Array = new Uint8Array(0);
	let pending: Uint8Array = new Uint8Array(0);
	// Chunks read since, joined to `pending` once they make a slice: one copy each, however small.
	let incoming: Uint8Array[] = [];
	let incomingLength = 0;
	let ended = false;
	const out: Uint8Array[] = [];
	// For the trailer's check: the bytes given out of the member being read, the compressed bytes
	// pushed so far, and the last slices pushed (whole slices but the last, so a trailer and the
	// header after it lie in the last three).
	let memberOut = 0;
	let pushed = 0;
	let recent: Uint8Array = new Uint8Array(0);
	/** The member that ends at input offset `end` gave as many bytes as its trailer says (mod 2^32). */
	const checkMember = (end: number) => {
		const at = end - 8 - (pushed - recent.length);
		// A header longer than the slices kept (a long file name in it) leaves that trailer unchecked.
		if (at >= 0) {
			const size = new DataView(recent.slice(at, at + 8).buffer).getUint32(4, true);
			if (size !== memberOut % 2 ** 32) throw new Error('the gzip data is cut short or broken');
		}
		memberOut = 0;
	};
	const push = (decompressor: Gunzip, slice: Uint8Array, final: boolean) => {
		recent = concat(recent.subarray(Math.max(0, recent.length - 2 * SLICE_BYTES)), slice);
		pushed += slice.length;
		decompressor.push(slice, final);
		if (final) checkMember(pushed);
	};
	return new ReadableStream<Uint8Array>({
		async pull(controller) {
			// A pull that hands nothing on would leave the reader waiting: go on until it does.
			while (out.length === 0) {
				if (incomingLength > 0 && (pending.length + incomingLength >= SLICE_BYTES || ended)) {
					pending = concat(pending, ...incoming);
					incoming = [];
					incomingLength = 0;
				}
				// Whole slices (but the last): the trailer's check looks back over the last three.
				if (
					gunzip instanceof Gunzip &&
					(pending.length >= SLICE_BYTES || (ended && pending.length > 0))
				) {
					const slice = pending.subarray(0, SLICE_BYTES);
					pending = pending.subarray(slice.length);
					push(gunzip, slice, ended && pending.length === 0);
					continue;
				}
				if (ended) break;
				const { done, value } = await reader.read();
				if (done) {
					ended = true;
					if (gunzip === null) {
						if (head.length > 0) out.push(head);
					} else if (gunzip instanceof Gunzip && pending.length + incomingLength === 0) {
						// The end of the input: fflate says here if the last member is cut short.
						push(gunzip, new Uint8Array(0), true);
					}
					continue;
				}
				if (gunzip === false) {
					out.push(value);
					break;
				}
				if (gunzip === null) {
					head = concat(head, value);
					if (head.length < GZIP.length) continue;
					if (head[0] === GZIP[0] && head[1] === GZIP[1]) {
						const decompressor = new Gunzip((chunk) => {
							memberOut += chunk.length;
							if (chunk.length > 0) out.push(chunk);
						});
						decompressor.onmember = (offset) => checkMember(offset);
						gunzip = decompressor;
						pending = head;
					} else {
						gunzip = false;
						out.push(head);
					}
					head = new Uint8Array(0);
					continue;
				}
				incoming.push(value);
				incomingLength += value.length;
			}
			for (const chunk of out.splice(0)) controller.enqueue(chunk);
			if (ended && pending.length + incomingLength === 0) controller.close();
		},
		cancel(reason) {
			return reader.cancel(reason);
		}
	});
}

function concat(...parts: Uint8Array[]): Uint8Array {
	const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
	let at = 0;
	for (const part of parts) {
		joined.set(part, at);
		at += part.length;
	}
	return joined;
}
