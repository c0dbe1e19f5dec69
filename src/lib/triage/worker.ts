// The triage worker's entry. The page starts it with
//   new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' })
// (Vite bundles it and its imports as a worker of its own) and talks to it through startTriage.
import { serveTriage, type TriageCommand, type TriagePort, type TriageReport } from './protocol';

serveTriage(globalThis as unknown as TriagePort<TriageCommand, TriageReport>);
