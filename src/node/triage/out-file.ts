// The verdicts file of `npm run triage`: never the file being read, never half written. It is written
// to a temporary file beside its target and renamed over it only once complete, so a run that
// fails or is interrupted leaves the target as it was (and no temporary file: see `leftovers`).
import { createWriteStream, fstatSync, unlinkSync, type Stats, type WriteStream } from 'node:fs';
import { open, realpath, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { basename, dirname } from 'node:path';

/** What a file is, whatever the spelling that reached it: its real path and its device and inode. */
export interface Identity {
	real: string | null;
	dev: number;
	ino: number;
}

/** The file at `path` (links followed), or null when there is none. */
export async function identify(path: string): Promise<(Identity & { stats: Stats }) | null> {
	let stats: Stats;
	try {
		stats = await stat(path);
	} catch {
		return null;
	}
	const real = await realpath(path).catch(() => null);
	return { real, dev: stats.dev, ino: stats.ino, stats };
}

/** The file standard input reads, when it is a file (`< log`); null for a pipe or a terminal. */
export function stdinIdentity(): Identity | null {
	try {
		const stats = fstatSync(0);
		return stats.isFile() ? { real: null, dev: stats.dev, ino: stats.ino } : null;
	} catch {
		return null;
	}
}

/** The same file: the same real path, or the same device and inode (a hard link has its own path). */
function same(a: Identity, b: Identity): boolean {
	return (a.real !== null && a.real === b.real) || (a.dev === b.dev && a.ino === b.ino);
}

/**
 * Why the verdicts cannot go to `out`, or null when they can: it names one of `protect` (the log,
 * the keys) under any spelling (`./log`, `dir/../log`, a symbolic or a hard link), or a directory.
 */
export async function refusal(
	out: string,
	protect: readonly { what: string; identity: Identity | null }[]
): Promise<string | null> {
	const target = await identify(out);
	if (target === null) return null;
	for (const { what, identity } of protect)
		if (identity !== null && same(target, identity))
			return `--out ${out} is ${what}: the verdicts would overwrite it. Give another --out.`;
	if (target.stats.isDirectory()) return `--out ${out} is a directory: give a file's name.`;
	return null;
}

/** Temporary files not yet renamed into place: removed however the process ends. */
const leftovers = new Set<string>();
let sweeping = false;
function sweepOnExit(): void {
	if (sweeping) return;
	sweeping = true;
	process.on('exit', () => {
		for (const path of leftovers) {
			try {
				unlinkSync(path);
			} catch {
				// Already gone.
			}
		}
	});
}

export class OutFile {
	/** The first error writing; the run stops at it. */
	error: unknown = null;
	#stream: WriteStream;
	#handle: FileHandle | null;
	#temp: string | null;
	#target: string;

	private constructor(
		stream: WriteStream,
		handle: FileHandle | null,
		temp: string | null,
		target: string
	) {
		this.#stream = stream;
		this.#handle = handle;
		this.#temp = temp;
		this.#target = target;
		stream.on('error', (error) => (this.error ??= error));
	}

	/**
	 * Opens the file for `out`: a new temporary file beside the real target (a symbolic link's
	 * target is replaced, the link kept), with the target's permissions if it exists. A device or a
	 * pipe (`/dev/null`, `/dev/fd/3`) is written directly: it cannot be renamed over, and holds no
	 * file to lose. Rejects when the file cannot be made.
	 */
	static async open(out: string): Promise<OutFile> {
		const existing = await identify(out);
		const direct = /^\/(?:dev|proc)\//.test(out) || (existing !== null && !existing.stats.isFile());
		// The streams get the descriptor's number, not the FileHandle: a FileHandle lent to a stream
		// that does not close it would never close (close waits for the stream to let it go).
		if (direct) {
			const handle = await open(out, 'w');
			return new OutFile(
				createWriteStream('', { fd: handle.fd, autoClose: false }),
				handle,
				null,
				out
			);
		}
		const target = existing?.real ?? out;
		// Beside the target as the system resolves it: not join(), whose `x/..` is lexical.
		const temp = `${dirname(target)}/.${basename(target)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
		sweepOnExit();
		const handle = await open(temp, 'wx', existing === null ? 0o666 : existing.stats.mode & 0o777);
		leftovers.add(temp);
		return new OutFile(
			createWriteStream('', { fd: handle.fd, autoClose: false }),
			handle,
			temp,
			target
		);
	}

	/** Writes, waiting while the disk catches up; never rejects (see `error`). */
	async write(text: string): Promise<void> {
		const stream = this.#stream;
		if (this.error !== null || stream.write(text)) return;
		// Each listener removed once one fires: thousands of waits add none for good.
		await new Promise<void>((resolve) => {
			const done = () => {
				for (const event of ['drain', 'close', 'error']) stream.off(event, done);
				resolve();
			};
			for (const event of ['drain', 'close', 'error']) stream.on(event, done);
		});
	}

	/** Completes the file and renames it into place. Rejects with the error if it cannot. */
	async commit(): Promise<void> {
		if (this.error !== null) throw this.error;
		this.#stream.end();
		await once(this.#stream, 'finish');
		if (this.error !== null) throw this.error;
		const handle = this.#handle;
		this.#handle = null;
		if (handle !== null) {
			// On disk before it takes the target's name: a crash then leaves the old file, not an empty one.
			if (this.#temp !== null) await handle.sync();
			await handle.close();
		}
		if (this.#temp !== null) {
			await rename(this.#temp, this.#target);
			leftovers.delete(this.#temp);
			this.#temp = null;
		}
	}

	/** Drops what was written: the temporary file is removed, the target left as it was. */
	async discard(): Promise<void> {
		this.#stream.destroy();
		const handle = this.#handle;
		this.#handle = null;
		await handle?.close().catch(() => undefined);
		if (this.#temp !== null) {
			await unlink(this.#temp).catch(() => undefined);
			leftovers.delete(this.#temp);
			this.#temp = null;
		}
	}
}
