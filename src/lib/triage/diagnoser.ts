// Diagnoses beside the bulk path. In a browser the triage worker hands each mismatch to a worker of
// its own (diagnosis-worker.ts), so that a second core names the mistakes while the first verifies
// the rest; the answers are the ones diagnoseMistake gives in this thread, which is where a mismatch
// is diagnosed whenever no such worker can start or it fails.
import type { DiagnoseInput } from '$lib/verify/diagnosis/diagnose';
import { syncDigests } from './hmac';
import { diagnoseMistake } from './verify';

export type Diagnose = (mismatch: DiagnoseInput) => Promise<string>;

/** The diagnosis worker's messages: a mismatch in, its mistake out, by id. */
export interface DiagnosisRequest {
	id: number;
	mismatch: DiagnoseInput;
}
export interface DiagnosisAnswer {
	id: number;
	mistake: string;
}

/** The worker's side of it (diagnosis-worker.ts). */
export function serveDiagnoses(scope: {
	postMessage(answer: DiagnosisAnswer): void;
	addEventListener(
		type: 'message',
		listener: (event: MessageEvent<DiagnosisRequest>) => void
	): void;
}): void {
	const digests = syncDigests();
	scope.addEventListener('message', (event) => {
		const { id, mismatch } = event.data;
		void diagnoseMistake(mismatch, digests).then((mistake) => scope.postMessage({ id, mistake }));
	});
}

/** Diagnoses in this thread, each variant signed synchronously. */
export function localDiagnose(): Diagnose {
	const digests = syncDigests();
	return (mismatch) => diagnoseMistake(mismatch, digests);
}

/**
 * Diagnoses in the worker `create` starts on first use (and keeps for later runs); in this thread
 * when it cannot start, and from the moment it fails, for every mismatch it had not answered.
 */
export function workerDiagnose(create: () => Worker, local: Diagnose = localDiagnose()): Diagnose {
	let worker: Worker | null | undefined;
	let nextId = 1;
	const waiting = new Map<
		number,
		{ mismatch: DiagnoseInput; resolve: (mistake: string) => void }
	>();
	const fail = () => {
		worker?.terminate();
		worker = null;
		for (const [id, { mismatch, resolve }] of waiting) {
			waiting.delete(id);
			void local(mismatch).then(resolve);
		}
	};
	const start = (): Worker | null => {
		try {
			const started = create();
			started.addEventListener('message', (event: MessageEvent<DiagnosisAnswer>) => {
				const entry = waiting.get(event.data.id);
				if (entry === undefined) return;
				waiting.delete(event.data.id);
				entry.resolve(event.data.mistake);
			});
			started.addEventListener('error', fail);
			started.addEventListener('messageerror', fail);
			return started;
		} catch {
			return null;
		}
	};
	return (mismatch) => {
		if (worker === undefined) worker = start();
		const current = worker;
		if (current === null) return local(mismatch);
		const id = nextId++;
		return new Promise<string>((resolve) => {
			waiting.set(id, { mismatch, resolve });
			try {
				current.postMessage({ id, mismatch } satisfies DiagnosisRequest);
			} catch {
				waiting.delete(id);
				void local(mismatch).then(resolve);
			}
		});
	};
}
