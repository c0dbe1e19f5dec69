// The triage worker's entry. The page starts it with
//   new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' })
// (Vite bundles it and its imports as a worker of its own) and talks to it through startTriage.
// Mismatches are diagnosed in a worker of their own where one can start (diagnoser.ts), started
// with this one.
import { workerDiagnose } from './diagnoser';
import { serveTriage, type TriageCommand, type TriagePort, type TriageReport } from './protocol';

serveTriage(globalThis as unknown as TriagePort<TriageCommand, TriageReport>, {
	diagnose:
		typeof Worker === 'function'
			? workerDiagnose(
					() => new Worker(new URL('./diagnosis-worker.ts', import.meta.url), { type: 'module' }),
					undefined,
					// Loaded while the page waits for its first run.
					{ startNow: true }
				)
			: undefined
});
