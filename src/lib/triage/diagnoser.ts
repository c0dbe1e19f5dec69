// Diagnoses beside the bulk path. In a browser the triage worker hands each mismatch to a worker of
// its own (diagnosis-worker.ts), so that a second core names the mistakes while the first verifies
// the rest; the answers are the ones diagnoseMistake gives in this thread, which is where a mismatch
// is diagnosed whenever no such worker can start or it fails.
import type { DiagnoseInput } from '$lib/diagnosis/diagnose';
import { syncDigests } from './hmac';
import { diagnoseMistake } from './verify';

export type Diagnose = (mismatch: DiagnoseInput) => Promise<string>;

/**
 * The diagnosis worker's messages: mismatches in, their mistakes out, by id, several to a message
 * (a message between threads costs more than a diagnosis when the machine is busy).
 */
export interface DiagnosisRequest {
	mismatches: { id: number; mismatch: DiagnoseInput }[];
}
export interface DiagnosisAnswer {
	mistakes: { id: number; mistake: string }[];
}

/** Mismatches sent at once, at most; fewer go when the triage lets other events in. */
const BATCH = 32;

/**
 * The worker's side of it (diagnosis-worker.ts). One diagnosis at a time, in the order they came:
 * each holds its variants until it ends (within its budget), so that many mismatches with huge URLs
 * do not hold theirs all at once.
 */
export function serveDiagnoses(scope: {
	postMessage(answer: DiagnosisAnswer): void;
	addEventListener(
		type: 'message',
		listener: (event: MessageEvent<DiagnosisRequest>) => void
	): void;
}): void {
	const digests = syncDigests();
	let previous: Promise<void> = Promise.resolve();
	scope.addEventListener('message', (event) => {
		previous = previous.then(async () => {
			const mistakes: DiagnosisAnswer['mistakes'] = [];
			for (const { id, mismatch } of event.data.mismatches)
				mistakes.push({ id, mistake: await diagnoseMistake(mismatch, digests) });
			scope.postMessage({ mistakes });
		});
	});
}

/** Diagnoses in this thread, each variant signed synchronously. */
export function localDiagnose(): Diagnose {
	const digests = syncDigests();
	return (mismatch) => diagnoseMistake(mismatch, digests);
}

/**
 * Diagnoses in the worker `create` starts on first use, or at once with `startNow` (so that it has
 * loaded before the first mismatch), and keeps for later runs; in this thread when it cannot start,
 * and from the moment it fails, for every mismatch it had not answered.
 */
export function workerDiagnose(
	create: () => Worker,
	local: Diagnose = localDiagnose(),
	{ startNow = false }: { startNow?: boolean } = {}
): Diagnose {
	let worker: Worker | null | undefined;
	let nextId = 1;
	const waiting = new Map<
		number,
		{ mismatch: DiagnoseInput; resolve: (mistake: string) => void }
	>();
	let unsent: DiagnosisRequest['mismatches'] = [];
	const fail = () => {
		worker?.terminate();
		worker = null;
		unsent = [];
		for (const [id, { mismatch, resolve }] of waiting) {
			waiting.delete(id);
			void local(mismatch).then(resolve);
		}
	};
	const send = () => {
		if (unsent.length === 0 || !worker) return;
		const mismatches = unsent;
		unsent = [];
		try {
			worker.postMessage({ mismatches } satisfies DiagnosisRequest);
		} catch {
			fail();
		}
	};
	const start = (): Worker | null => {
		try {
			const started = create();
			started.addEventListener('message', (event: MessageEvent<DiagnosisAnswer>) => {
				for (const { id, mistake } of event.data.mistakes) {
					const entry = waiting.get(id);
					if (entry === undefined) continue;
					waiting.delete(id);
					entry.resolve(mistake);
				}
			});
			started.addEventListener('error', fail);
			started.addEventListener('messageerror', fail);
			return started;
		} catch {
			return null;
		}
	};
	if (startNow) worker = start();
	return (mismatch) => {
		if (worker === undefined) worker = start();
		if (worker === null) return local(mismatch);
		const id = nextId++;
		return new Promise<string>((resolve) => {
			waiting.set(id, { mismatch, resolve });
			unsent.push({ id, mismatch });
			// The rest go when the triage next lets other events in (or waits for an answer).
			if (unsent.length >= BATCH) send();
			else if (unsent.length === 1) setTimeout(send, 0);
		});
	};
}
