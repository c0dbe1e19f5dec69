// V8 compiles code that reads typed arrays on the assumption that no ArrayBuffer has ever been
// detached in its thread, and drops that assumption at the first detach: every function compiled
// with it is thrown away at once and compiled again. In the pool the first detach is the first
// part or result sent by postMessage with a transfer, mid-run, when the hot functions (the SHA-1,
// the readers, the diagnosis) are already compiled: each thread compiled them twice. One buffer
// detached when a thread starts, before anything is hot, spares that second compile: on `npm run
// triage` with a million requests, 44 functions thrown away at once per run before, 6 after (by
// --trace-deopt; those 6 for other reasons).

/** Detaches an empty buffer: call it first thing in a thread that will send or receive a transfer. */
export function detachEarly(): void {
	const buffer = new ArrayBuffer(0);
	structuredClone(buffer, { transfer: [buffer] });
}
