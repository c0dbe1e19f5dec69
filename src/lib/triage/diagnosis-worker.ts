// The diagnosis worker's entry, started by the triage worker (worker.ts) with
//   new Worker(new URL('./diagnosis-worker.ts', import.meta.url), { type: 'module' })
// and fed its mismatches through workerDiagnose (diagnoser.ts).
import { serveDiagnoses, type DiagnosisAnswer, type DiagnosisRequest } from './diagnoser';

serveDiagnoses(
	globalThis as unknown as {
		postMessage(answer: DiagnosisAnswer): void;
		addEventListener(
			type: 'message',
			listener: (event: MessageEvent<DiagnosisRequest>) => void
		): void;
	}
);
