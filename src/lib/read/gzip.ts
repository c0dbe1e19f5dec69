// Logs rotated as `.gz` (logrotate's compress) are read as they are: a stream whose first bytes are
// gzip's signature is decompressed on the way in, a slice at a time, so that memory holds a slice's
// output, not the log's. fflate's Gunzip reads every member of a file of several (cat a.gz b.gz).
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
	let ended = false;
	const out: Uint8Array[] = [];
	return new ReadableStream<Uint8Array>({
		async pull(controller) {
			// A pull that hands nothing on would leave the reader waiting: go on until it does.
			while (out.length === 0) {
				if (gunzip instanceof Gunzip && pending.length > 0) {
					const slice = pending.subarray(0, SLICE_BYTES);
					pending = pending.subarray(slice.length);
					gunzip.push(slice, ended && pending.length === 0);
					continue;
				}
				if (ended) break;
				const { done, value } = await reader.read();
				if (done) {
					ended = true;
					if (gunzip === null) {
						if (head.length > 0) out.push(head);
					} else if (gunzip instanceof Gunzip && pending.length === 0) {
						// The end of the input: fflate says here if the last member is cut short.
						gunzip.push(new Uint8Array(0), true);
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
							if (chunk.length > 0) out.push(chunk);
						});
						gunzip = decompressor;
						pending = head;
					} else {
						gunzip = false;
						out.push(head);
					}
					head = new Uint8Array(0);
					continue;
				}
				pending = pending.length === 0 ? value : concat(pending, value);
			}
			for (const chunk of out.splice(0)) controller.enqueue(chunk);
			if (ended && pending.length === 0 && out.length === 0) controller.close();
		},
		cancel(reason) {
			return reader.cancel(reason);
		}
	});
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
	const joined = new Uint8Array(a.length + b.length);
	joined.set(a);
	joined.set(b, a.length);
	return joined;
}
