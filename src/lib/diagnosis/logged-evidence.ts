// The customer's logged base string as evidence, checked before any guess: signed with the key, does
// it give their mac? If so the key and the digest step are right, and every line where it differs
// from the expected base string is a mistake in what they signed. If not, the key or the digest
// step differs (or the string logged is not the one signed).
import { hmac, type Digest } from '$lib/mac';
import { text, type Text } from '$lib/i18n/text';
import { sentences } from '$lib/i18n/shown-text';
import { diffBaseString, type LineDiff } from './base-string-diff';

/** An HMAC signer: the core's hmac(), or the triage's synchronous one. */
export type Signer = (key: string, text: string, hash: 'SHA-1') => Digest | Promise<Digest>;

/** One line where what they signed is not what the request sends. */
export interface LineMistake {
	/** 1-based, as the spec numbers the lines. */
	number: number;
	/** 'changed': both have the line; 'missing': theirs lacks it; 'extra': the spec has no such line. */
	kind: 'changed' | 'missing' | 'extra';
	expected: string | null;
	actual: string | null;
}

export interface LoggedEvidence {
	/** Their logged base string signed with the key gives their mac. */
	keyRight: boolean;
	/** The lines that differ, in order; empty when the string is the expected one. */
	lines: LineMistake[];
	/**
	 * An id for the triage's mistake column: `logged-base-string:<line kinds>` (`nonce`, `ts`,
	 * `line-4`, `line-7-missing` …, joined by ",": "+" joins a pair of mistakes) when the key is right, `logged-base-string:key-or-digest`
	 * when not.
	 */
	id: string;
	message: Text;
}

const LINE_NAMES: Record<number, string> = { 1: 'ts', 2: 'nonce' };

function lineMistakes(lines: readonly LineDiff[]): LineMistake[] {
	const found: LineMistake[] = [];
	for (const line of lines) {
		if (line.same) continue;
		const kind = line.actual === null ? 'missing' : line.expected === null ? 'extra' : 'changed';
		found.push({ number: line.number, kind, expected: line.expected, actual: line.actual });
	}
	return found;
}

function lineId(line: LineMistake): string {
	const name = LINE_NAMES[line.number] ?? `line-${line.number}`;
	return line.kind === 'changed' ? name : `${name}-${line.kind}`;
}

/** A line's value for a message, cut at 60 characters. */
function shown(value: string | null): string {
	const line = value ?? '';
	return line.length > 60 ? `${line.slice(0, 60)}…` : line;
}

function lineText(line: LineMistake): Text {
	const number = String(line.number);
	const expected = shown(line.expected);
	const actual = shown(line.actual);
	if (line.kind === 'missing') return text('diagnosis_logged_line_missing', { number, expected });
	if (line.kind === 'extra') return text('diagnosis_logged_line_extra', { number, actual });
	if (line.number === 1) return text('diagnosis_logged_ts', { expected, actual });
	if (line.number === 2) return text('diagnosis_logged_nonce', { expected, actual });
	return text('diagnosis_logged_line_changed', { number, expected, actual });
}

/**
 * Checks the logged base string (already read out of its log line, see readLoggedBaseString)
 * against their mac and the expected base string. Only the string as logged is signed: no variant
 * of it, so that "the key is right" rests on that one exact HMAC.
 */
export async function loggedEvidence(
	expected: string,
	logged: string,
	macKey: string,
	customerMac: string,
	sign: Signer = hmac
): Promise<LoggedEvidence> {
	const keyRight = (await sign(macKey, logged, 'SHA-1')).base64 === customerMac.trim();
	const lines = lineMistakes(diffBaseString(expected, logged).lines);
	if (!keyRight)
		return {
			keyRight,
			lines,
			id: 'logged-base-string:key-or-digest',
			message: text('diagnosis_logged_key_differs')
		};
	if (lines.length === 0)
		return {
			keyRight,
			lines,
			id: 'logged-base-string:same',
			message: text('diagnosis_logged_key_right_same')
		};
	const message = sentences('diagnosis_sentences', [
		text('diagnosis_logged_key_right'),
		...lines.map(lineText)
	]) as Text;
	return {
		keyRight,
		lines,
		id: `logged-base-string:${lines.map(lineId).join(',')}`,
		message
	};
}
