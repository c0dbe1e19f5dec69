// Triage: every signed request of a log or HAR verified against the keys held, grouped by the
// mistake that explains it. Plain TypeScript over the protocol core and /verify's diagnosis, so the
// page's worker and Node (npm run triage) run the same code. It flows readers (bytes → requests) →
// verify (request → verdict, mismatch → mistake) → tally (groups) → exports (CSV, Markdown).
// /verify's code must not import this folder (it imports /verify): a page that needs both goes
// through src/lib/pages.

export type {
	HmacEngine,
	KidCount,
	LoggedRequest,
	ReadItem,
	TriageFormat,
	TriageProgress,
	TriageSummary,
	Unreadable,
	UnreadableCode,
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
export { detectFormat, readRequests, type Reading } from './read/readers';
export { DEFAULT_WINDOW_SECONDS, triage, triageText, type TriageOptions } from './engine';
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
