// What leaves the triage: the verdicts as CSV and the groups as Markdown for a ticket. Kids are
// masked as the case file masks them, wherever they appear (access_token in a URL equals the kid);
// no mac_key is ever given to these functions, so none can leak through them.
import type { KeylessId } from '$lib/diagnosis/without-key';
import { maskKid, masker } from '$lib/diagnosis/mask-kid';
import { clientGroupId, codeEvidence, confidenceOf } from '$lib/diagnosis/likely-client';
import type { Unreadable, UnreadableCode } from '$lib/read/types';
import type { Refusal } from '$lib/diagnosis/service-answer';
import { UNEXPLAINED, type TriageSummary, type VerdictKind, type VerdictRecord } from './types';

export interface ExportOptions {
	/** Show kids in full; masked by default. */
	revealKid?: boolean;
}

export const CSV_COLUMNS = [
	'number',
	'method',
	'url',
	'kid',
	'verdict',
	'refusal',
	'mistake',
	'status',
	'ts_age_seconds',
	'ts_outside_window',
	'nonce_first_used_at',
	'unreadable',
	'likely_client',
	'likely_client_confidence',
	'likely_client_evidence'
] as const;

type Cell = string | number | boolean | null;

/**
 * One cell: text that a spreadsheet would run as a formula (starting with = + - @, a tab or a CR)
 * is prefixed with `'`, and a cell holding a quote, comma or line break is quoted (RFC 4180).
 */
export function csvCell(value: Cell): string {
	if (value === null) return '';
	if (typeof value !== 'string') return String(value);
	const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
	return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function masked(record: VerdictRecord, revealKid: boolean): { kid: string; url: string } {
	const { kid, url } = record;
	if (revealKid || kid === '') return { kid, url };
	return { kid: maskKid(kid), url: masker(kid, false)(url) };
}

export const CSV_HEADER = `${CSV_COLUMNS.join(',')}\r\n`;

/** A verdict's values, one for each of CSV_COLUMNS. */
function verdictCells(record: VerdictRecord, options: ExportOptions): Cell[] {
	const { kid, url } = masked(record, options.revealKid ?? false);
	return [
		record.number,
		record.method,
		url,
		kid,
		record.verdict,
		record.refusal,
		record.mistake,
		record.status,
		record.clock?.ageSeconds ?? null,
		record.clock === null ? null : record.clock.outsideWindow,
		record.nonceFirstUsedAt,
		record.unreadable?.field === undefined
			? (record.unreadable?.code ?? null)
			: `${record.unreadable.code}:${record.unreadable.field}`,
		record.verdict === 'unreadable' ? null : clientGroupId(record.client),
		confidenceOf(record.client),
		clientEvidence(record)
	];
}

/**
 * What the likely client stands on, as ids a spreadsheet can filter: `nonce_php; separator_comma;
 * uri_with_port_unknown` (the client_evidence_* messages' keys); empty for unknown.
 */
function clientEvidence(record: VerdictRecord): string | null {
	const evidence = codeEvidence(record.client, record.mistake);
	if (evidence.length === 0) return null;
	return evidence.map(({ key }) => key.replace(/^client_evidence_/, '')).join('; ');
}

/** One CSV row with its CRLF, for writing verdicts as they come. */
export function csvRow(record: VerdictRecord, options: ExportOptions = {}): string {
	return `${verdictCells(record, options).map(csvCell).join(',')}\r\n`;
}

const NONCE_COLUMN = CSV_COLUMNS.indexOf('nonce_first_used_at');
const VERDICT_COLUMN = CSV_COLUMNS.indexOf('verdict');

/**
 * A row as csvRow writes it, where in it the nonce_first_used_at cell starts, and where the verdict
 * cell starts: the triage's pool writes a part's rows before it knows whether an earlier part used
 * the same nonce, and fills the (empty) cell in later when one did, making a match refused
 * (`match,` then the empty refusal cell become `refused,nonce-reused`).
 */
export function csvRowWithNonceAt(
	record: VerdictRecord,
	options: ExportOptions = {}
): { row: string; nonceAt: number; verdictAt: number } {
	const cells = verdictCells(record, options).map(csvCell);
	const before = `${cells.slice(0, NONCE_COLUMN).join(',')},`;
	return {
		row: `${before}${cells.slice(NONCE_COLUMN).join(',')}\r\n`,
		nonceAt: before.length,
		verdictAt: `${cells.slice(0, VERDICT_COLUMN).join(',')},`.length
	};
}

/**
 * One verdict as a line of JSON with its LF (`triage --ndjson`): the CSV's columns as keys, the
 * values typed (numbers, booleans, null), kids masked as in the CSV.
 */
export function ndjsonLine(record: VerdictRecord, options: ExportOptions = {}): string {
	const cells = verdictCells(record, options);
	return `${JSON.stringify(Object.fromEntries(CSV_COLUMNS.map((column, index) => [column, cells[index]])))}\n`;
}

const NONCE_KEY = `"${CSV_COLUMNS[NONCE_COLUMN]}":`;
const VERDICT_KEY = `"${CSV_COLUMNS[VERDICT_COLUMN]}":`;

/**
 * A line as ndjsonLine writes it, and where its nonce_first_used_at value starts (`null` for a first
 * use: replaced by the pool when an earlier part used the nonce). Found by its key: a key with its
 * quotes and colon cannot occur inside a JSON string, whose quotes are escaped.
 */
export function ndjsonLineWithNonceAt(
	record: VerdictRecord,
	options: ExportOptions = {}
): { row: string; nonceAt: number; verdictAt: number } {
	const row = ndjsonLine(record, options);
	return {
		row,
		nonceAt: row.indexOf(NONCE_KEY) + NONCE_KEY.length,
		verdictAt: row.indexOf(VERDICT_KEY) + VERDICT_KEY.length
	};
}

/** The verdicts as one CSV text, header first. */
export function verdictsCsv(records: Iterable<VerdictRecord>, options: ExportOptions = {}): string {
	let text = CSV_HEADER;
	for (const record of records) text += csvRow(record, options);
	return text;
}

/**
 * Every word of the Markdown summary: English by default (the command line's), the page's language
 * when the page writes it (src/lib/triage-desk/labels.ts).
 */
export interface MarkdownWords {
	title: (requests: number) => string;
	created: (at: string, kidsMasked: boolean) => string;
	format: (format: string, bytes: number, cancelled: boolean) => string;
	/** The name of a detected format (null: the input was empty). */
	formatName: (format: TriageSummary['format']) => string;
	skipped: (count: number) => string;
	stopped: (where: string) => string;
	groups: string;
	group: string;
	requests: string;
	/** The head of the column of the first request numbers of a group. */
	firstNumbers: string;
	groupName: (group: VerdictKind) => string;
	mistakes: string;
	mistake: string;
	unexplained: string;
	/** The head of the section of refused requests (signature right) by reason, and its column. */
	refusals: string;
	refusal: string;
	clockAndNonces: string;
	/** `first`: the first request numbers, or null when none is outside. */
	clock: (clock: TriageSummary['clock'], first: string | null) => string;
	nonces: (count: number, first: string | null) => string;
	/** Requests whose header is not in the spec's form, of every verdict. */
	headerFormat: (count: number, first: string | null) => string;
	/** The head of the section of what requests of a kid with no key show alone, and its column. */
	keyless: string;
	keylessFinding: string;
	clients: string;
	client: string;
	/** Under the likely clients: on what a client is named, and where each verdict's evidence is. */
	clientsNote: string;
	unreadable: string;
	reason: string;
	count: string;
	kids: string;
	mismatches: string;
	noKey: string;
	moreKids: string;
	/** The head of the section of each kid's mismatches by mistake. */
	kidMistakes: string;
}

/** What a request of a kid with no key shows alone (keylessFindings), in English. */
export const KEYLESS_NAMES: Record<KeylessId, string> = {
	'ts-milliseconds': 'ts in milliseconds (13 digits)',
	'ts-float': 'ts in seconds with a fraction',
	'ts-other': 'ts not whole seconds',
	'mac-base64-sha1-unpadded': 'mac: Base64 HMAC-SHA-1 without its `=`',
	'mac-base64url-sha1': 'mac: Base64URL alphabet',
	'mac-hex-sha1': 'mac: 40 hex digits (SHA-1 in hex)',
	'mac-base64-sha256': 'mac: length of a Base64 SHA-256',
	'mac-hex-sha256': 'mac: 64 hex digits (SHA-256 in hex)',
	'mac-hex-dashed-sha1': 'mac: SHA-1 as hex pairs joined by - (as BitConverter.ToString writes it)',
	'mac-base64-of-hex-sha1': 'mac: Base64 of a SHA-1 in hex',
	'mac-bytes-repr-sha1': "mac: Python's b'…' around a Base64 SHA-1",
	'mac-other': 'mac: the shape of no known digest'
};

const GROUP_NAMES: Record<VerdictKind, string> = {
	match: 'match',
	refused: 'signature right, refused',
	mismatch: 'mismatch',
	'no-key': 'no key for kid',
	unreadable: 'unreadable'
};

export const FORMAT_NAMES = { har: 'HAR', ndjson: 'NDJSON', 'log-lines': 'log lines' } as const;

/** The English words, for `unit` ('line', or 'entry' in a HAR). */
export function englishMarkdownWords(unit: 'line' | 'entry'): MarkdownWords {
	return {
		title: (requests) => `Triage of ${requests} signed requests`,
		created: (at, kidsMasked) =>
			`Created ${at}. No mac_key is in this file${kidsMasked ? '; kids are masked' : ''}.`,
		format: (format, bytes, cancelled) =>
			`Format: ${format}, ${bytes} bytes${cancelled ? ' (cancelled before the end)' : ''}`,
		formatName: (format) => (format === null ? 'empty' : FORMAT_NAMES[format]),
		skipped: (count) => `Other ${unit}s (no MAC-signed request): ${count}`,
		stopped: (where) => `Reading stopped: ${where}`,
		groups: 'Groups',
		group: 'Group',
		requests: 'Requests',
		firstNumbers: `First ${unit}s`,
		groupName: (group) => GROUP_NAMES[group],
		mistakes: 'Mismatches by mistake',
		mistake: 'Mistake',
		unexplained: 'unexplained',
		refusals: 'Signature right, refused, by reason',
		refusal: 'Reason',
		clockAndNonces: 'Clock and nonces',
		clock: ({ windowSeconds, outsideWindow, withLoggedTime }, first) =>
			`ts outside ±${windowSeconds} s of the logged time: ${outsideWindow} of ${withLoggedTime} requests with a logged time (the window is an assumption: the spec does not state it)${first === null ? '' : `; first ${unit}s ${first}`}`,
		nonces: (count, first) =>
			`nonce used again by the same kid: ${count}${first === null ? '' : `; first ${unit}s ${first}`}`,
		headerFormat: (count, first) =>
			`header not written as the spec shows it (\`MAC id="…",ts="…",nonce="…",mac="…"\`), whatever the verdict, no key included: ${count}${first === null ? '' : `; first ${unit}s ${first}`}`,
		keyless: 'No key for kid: what the requests alone show',
		keylessFinding: 'Seen without the key',
		clients: 'Likely clients',
		client: 'Likely client',
		clientsNote:
			"Named only on a sample's fixed nonce (high confidence) or on a mistake only that sample's code makes (medium confidence); forms other code writes too are unknown. Each verdict's confidence and evidence are in the CSV.",
		unreadable: 'Unreadable',
		reason: 'Reason',
		count: 'Count',
		kids: 'Kids',
		kidMistakes: 'Mismatches by kid and mistake',
		mismatches: 'Mismatches',
		noKey: 'No key',
		moreKids: 'And more kids, not listed.'
	};
}

export interface MarkdownOptions extends ExportOptions {
	createdAt?: Date;
	/** A mistake's label in the reader's language; its catalogue id otherwise. */
	mistakeLabel?: (id: string) => string;
	/**
	 * A likely client's name in the reader's language (given the id of a client, several joined by
	 * "|", or 'unknown'); the id otherwise.
	 */
	clientLabel?: (id: string) => string;
	/** A refusal's label in the reader's language; its id otherwise. */
	refusalLabel?: (id: Refusal) => string;
	/** What a request of a kid with no key shows alone, in the reader's language; English otherwise. */
	keylessLabel?: (id: KeylessId) => string;
	/** An unreadable request's reason in the reader's language; its code otherwise. */
	unreadableLabel?: (code: UnreadableCode) => string;
	/** Kids listed at most (the busiest first). */
	maxKids?: number;
	/** Where and why reading stopped, in the reader's language; its code and byte otherwise. */
	stoppedLabel?: (stopped: Unreadable) => string;
	/** The words of the file in the reader's language, given the unit ('line' or 'entry'). */
	words?: (unit: 'line' | 'entry') => MarkdownWords;
}

function cell(text: string): string {
	return text
		.replace(/\\/g, '\\\\')
		.replace(/\|/g, '\\|')
		.replace(/[\r\n]+/g, ' ');
}

function examples(summary: TriageSummary, group: string): string {
	const numbers = summary.examples[group] ?? [];
	return numbers.length === 0 ? '' : numbers.join(', ');
}

/** Where and why reading stopped: the reader's words, else its code, entry or line, and byte. */
function stopped(stop: Unreadable, options: MarkdownOptions, unit: string): string {
	if (options.stoppedLabel) return cell(options.stoppedLabel(stop));
	const found = stop.found === undefined ? '' : ` (${cell(stop.found)})`;
	const where = stop.number > 0 ? `, ${unit} ${stop.number}` : '';
	return `\`${stop.code}\`${found} at byte ${stop.at ?? 0}${where}`;
}

/** A table's head and its alignment line (`alignment`: "---" a text column, "---:" a count). */
function head(columns: string[], alignment: string[]): string[] {
	return [`| ${columns.map(cell).join(' | ')} |`, `| ${alignment.join(' | ')} |`];
}

/** A group's name, its requests and its first numbers. */
const GROUP_COLUMNS = ['---', '---:', '---'];

/** The groups as Markdown for a ticket: counts, mistakes, clock, nonces, reasons and kids. */
export function summaryMarkdown(summary: TriageSummary, options: MarkdownOptions = {}): string {
	const revealKid = options.revealKid ?? false;
	const label = options.mistakeLabel ?? ((id: string) => `\`${id}\``);
	const unit = summary.format === 'har' ? 'entry' : 'line';
	const words = (options.words ?? englishMarkdownWords)(unit);
	const out = [
		`# ${words.title(summary.requests)}`,
		'',
		words.created((options.createdAt ?? new Date()).toISOString(), !revealKid),
		'',
		`- ${words.format(words.formatName(summary.format), summary.bytesRead, summary.cancelled)}`,
		`- ${words.skipped(summary.skipped)}`,
		...(summary.stopped === null
			? []
			: [`- ${words.stopped(stopped(summary.stopped, options, unit))}`]),
		'',
		`## ${words.groups}`,
		'',
		...head([words.group, words.requests, words.firstNumbers], GROUP_COLUMNS),
		...(Object.keys(GROUP_NAMES) as VerdictKind[]).map(
			(group) =>
				`| ${cell(words.groupName(group))} | ${summary.groups[group]} | ${examples(summary, group)} |`
		)
	];
	if (summary.groups.mismatch > 0) {
		out.push('', `## ${words.mistakes}`, '');
		out.push(...head([words.mistake, words.requests, words.firstNumbers], GROUP_COLUMNS));
		for (const { id, count } of summary.mistakes)
			out.push(`| ${cell(label(id))} | ${count} | ${examples(summary, id)} |`);
		out.push(
			`| ${cell(words.unexplained)} | ${summary.unexplained} | ${examples(summary, 'unexplained')} |`
		);
	}
	if (summary.groups.refused > 0) {
		const refusalLabel = options.refusalLabel ?? ((id: Refusal) => `\`${id}\``);
		out.push('', `## ${words.refusals}`, '');
		out.push(...head([words.refusal, words.requests, words.firstNumbers], GROUP_COLUMNS));
		for (const { id, count } of summary.refusals)
			out.push(`| ${cell(refusalLabel(id))} | ${count} | ${examples(summary, `refused:${id}`)} |`);
	}
	if (summary.keyless.length > 0) {
		const keylessLabel = options.keylessLabel ?? ((id: KeylessId) => KEYLESS_NAMES[id]);
		out.push('', `## ${words.keyless}`, '');
		out.push(...head([words.keylessFinding, words.requests, words.firstNumbers], GROUP_COLUMNS));
		for (const { id, count } of summary.keyless)
			out.push(`| ${cell(keylessLabel(id))} | ${count} | ${examples(summary, `keyless:${id}`)} |`);
	}
	const { clock } = summary;
	out.push(
		'',
		`## ${words.clockAndNonces}`,
		'',
		`- ${words.clock(clock, clock.outsideWindow > 0 ? examples(summary, 'clock') : null)}`,
		`- ${words.nonces(summary.noncesReused, summary.noncesReused > 0 ? examples(summary, 'nonce') : null)}`
	);
	if (summary.headerFormat > 0)
		out.push(`- ${words.headerFormat(summary.headerFormat, examples(summary, 'header-format'))}`);
	if (summary.clients.length > 0) {
		const clientLabel = options.clientLabel ?? ((id: string) => `\`${id}\``);
		out.push(
			'',
			`## ${words.clients}`,
			'',
			...head([words.client, words.requests], ['---', '---:'])
		);
		for (const { id, count } of summary.clients)
			out.push(`| ${cell(clientLabel(id))} | ${count} |`);
		out.push('', words.clientsNote);
	}
	if (summary.unreadable.length > 0) {
		const reason = options.unreadableLabel ?? ((code: UnreadableCode) => `\`${code}\``);
		out.push(
			'',
			`## ${words.unreadable}`,
			'',
			...head([words.reason, words.count], ['---', '---:'])
		);
		for (const { code, count } of summary.unreadable)
			out.push(`| ${cell(reason(code))} | ${count} |`);
	}
	const maxKids = options.maxKids ?? 50;
	if (summary.kids.length > 0) {
		out.push(
			'',
			`## ${words.kids}`,
			'',
			...head(
				['kid', words.requests, words.mismatches, words.noKey],
				['---', '---:', '---:', '---:']
			)
		);
		for (const kid of summary.kids.slice(0, maxKids))
			out.push(
				`| ${cell(revealKid ? kid.kid : maskKid(kid.kid))} | ${kid.requests} | ${kid.mismatches} | ${kid.noKey} |`
			);
		const rest = summary.kids.length - maxKids + (summary.otherKids > 0 ? 1 : 0);
		if (rest > 0) out.push('', words.moreKids);
	}
	// Which kid makes which mistake: one row per kid and mistake, the kids with most mismatches first.
	const kidsWithMistakes = summary.kids
		.filter((kid) => kid.mismatches > 0 && (kid.mistakes?.length ?? 0) > 0)
		.sort((a, b) => b.mismatches - a.mismatches || (a.kid < b.kid ? -1 : 1))
		.slice(0, maxKids);
	if (kidsWithMistakes.length > 0) {
		out.push(
			'',
			`## ${words.kidMistakes}`,
			'',
			...head(['kid', words.mistake, words.requests], ['---', '---', '---:'])
		);
		for (const kid of kidsWithMistakes)
			for (const { id, count } of kid.mistakes ?? [])
				out.push(
					`| ${cell(revealKid ? kid.kid : maskKid(kid.kid))} | ${cell(id === UNEXPLAINED ? words.unexplained : label(id))} | ${count} |`
				);
	}
	out.push('');
	return out.join('\n');
}
