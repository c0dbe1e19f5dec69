// The triage pool's way of reading a log, on the command line (a file) and on the page (a File):
// read straight into buffers of about a part's size, each cut after its last LF, the bytes after
// it carried to the start of the next buffer. A block then goes to a worker as it is
// (LineChunker.feedOwned): the coordinator copies only the carried bytes, not every byte twice
// (held, then joined into a part), and it shares the cores with the workers it feeds.

/** Where the blocks are read from: node:fs's FileHandle has this shape; blobSource makes one. */
export interface BlockSource {
	read(
		buffer: Uint8Array,
		offset: number,
		length: number,
		position: number
	): Promise<{ bytesRead: number }>;
	close(): Promise<void>;
}

/** A Blob (a File the page was given, a pasted text) as a BlockSource. */
export function blobSource(blob: Blob): BlockSource {
	return {
		async read(buffer, offset, length, position) {
			const bytes = new Uint8Array(await blob.slice(position, position + length).arrayBuffer());
			buffer.set(bytes, offset);
			return { bytesRead: bytes.length };
		},
		close: async () => undefined
	};
}

const LF = 0x0a;

/**
 * The file from its start, in blocks of `blockBytes` (more only when a line of over half that many
 * is carried); each ends at an LF, except the last when the file does not, and a block holding no LF
 * at all (then nothing is carried: the chunker copies and cuts it as any block). Each block has a
 * buffer of its own. The stream closes the file at its end, on an error, and when cancelled.
 */
export function lineBlocks(file: BlockSource, blockBytes: number): ReadableStream<Uint8Array> {
	let carried = new Uint8Array(0);
	let position = 0;
	let closed = false;
	const close = async () => {
		if (closed) return;
		closed = true;
		await file.close();
	};
	return new ReadableStream<Uint8Array>({
		async pull(controller) {
			try {
				// A block of `blockBytes` with what is carried: no longer than a part, which is no longer
				// than a line may be (LineChunker's tooLong), unless a line of megabytes is carried.
				const reading = carried.length <= blockBytes / 2 ? blockBytes - carried.length : blockBytes;
				const buffer = new Uint8Array(carried.length + reading);
				buffer.set(carried);
				const { bytesRead } = await file.read(buffer, carried.length, reading, position);
				position += bytesRead;
				if (bytesRead === 0) {
					if (carried.length > 0) controller.enqueue(carried);
					carried = new Uint8Array(0);
					controller.close();
					await close();
					return;
				}
				const filled = carried.length + bytesRead;
				const lastLf = buffer.lastIndexOf(LF, filled - 1);
				if (lastLf === -1) {
					carried = new Uint8Array(0);
					controller.enqueue(buffer.subarray(0, filled));
					return;
				}
				carried = buffer.slice(lastLf + 1, filled);
				controller.enqueue(buffer.subarray(0, lastLf + 1));
			} catch (error) {
				await close().catch(() => undefined);
				throw error;
			}
		},
		async cancel() {
			await close();
		}
	});
}
