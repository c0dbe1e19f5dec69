// Triage: every signed request of a log or HAR verified against the keys held, grouped by the
// mistake that explains it. Plain TypeScript over the protocol core, the readers ($lib/read) and the
// diagnosis ($lib/diagnosis), so the page's worker and Node (npm run triage) run the same code. It
// flows $lib/read (bytes → requests) → verify (request → verdict, mismatch → mistake) → tally
// (groups) → exports (CSV, Markdown).

export type {
	KidCount,
	TriageFormat,
	TriageProgress,
	TriageSummary,
	VerdictKind,
	VerdictRecord
} from './types';
export { UNEXPLAINED } from './types';
export {
	parseKeys,
	type KeyProblem,
	type KeyProblemCode,
	type Keyring,
	type ParsedKeys
} from './keys';
export { triage, triageText, type TriageOptions } from './engine';
export {
	CSV_COLUMNS,
	CSV_HEADER,
	csvCell,
	csvRow,
	summaryMarkdown,
	verdictsCsv,
	type ExportOptions,
	type MarkdownOptions
} from './exports';
export {
	serveTriage,
	startTriage,
	type TriageCommand,
	type TriageHandlers,
	type TriageInput,
	type TriagePort,
	type TriageReport,
	type TriageRun,
	type TriageRunOptions
} from './protocol';

/**
 * The triage worker, which Vite bundles as a worker of its own (with the engine, the protocol core
 * and the diagnosis); talk to it with startTriage. Only for the browser: Node runs `triage` itself.
 */
export function createTriageWorker(): Worker {
	return new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
}
