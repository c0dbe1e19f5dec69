// The fields of a search's inputs as bits: what a mistake reads or changed, applied and measured
// without a load by a computed name (search.ts makes every variant through these).
import type { SigningInputs } from './signing-inputs';

/** Each field of the inputs, one bit each. */
export const TS = 1 << 0;
export const NONCE = 1 << 1;
export const METHOD = 1 << 2;
export const URI = 1 << 3;
export const HOST = 1 << 4;
export const PORT = 1 << 5;
export const EXT = 1 << 6;
export const LINE_END = 1 << 7;
export const ENDING = 1 << 8;
export const KEY = 1 << 9;
export const KEY_FORM = 1 << 10;
export const HASH = 1 << 11;
export const ENCODING = 1 << 12;

/** Every field's bit (the type makes sure none is left out). */
export const FIELD_BITS = {
	ts: TS,
	nonce: NONCE,
	method: METHOD,
	uri: URI,
	host: HOST,
	port: PORT,
	ext: EXT,
	lineEnd: LINE_END,
	ending: ENDING,
	key: KEY,
	keyForm: KEY_FORM,
	hash: HASH,
	encoding: ENCODING
} satisfies Record<keyof SigningInputs, number>;

/** The fields whose length counts as read: the lines of the base string, and the key. */
export const LINE_BITS = TS | NONCE | METHOD | URI | HOST | PORT | EXT | KEY;

/**
 * The characters of the fields of `inputs` among `lines` (bits of LINE_BITS). Each field read by
 * its name: a diagnosis calls this for every variant, and a load by a computed name from objects of
 * many fields is a slow (megamorphic) one in V8.
 */
export function charsOf(lines: number, inputs: SigningInputs): number {
	let chars = 0;
	if (lines & TS) chars += inputs.ts.length;
	if (lines & NONCE) chars += inputs.nonce.length;
	if (lines & METHOD) chars += inputs.method.length;
	if (lines & URI) chars += inputs.uri.length;
	if (lines & HOST) chars += inputs.host.length;
	if (lines & PORT) chars += inputs.port.length;
	if (lines & EXT) chars += inputs.ext.length;
	if (lines & KEY) chars += inputs.key.length;
	return chars;
}

/**
 * Inputs with every field written out in this order: all the inputs a search reads have this one
 * shape, whichever mistake made them (a catalogue entry spreads its inputs into an object literal of
 * its own), so that reading their fields stays a fast (monomorphic) load.
 */
export function sameShape(inputs: SigningInputs): SigningInputs {
	return {
		ts: inputs.ts,
		nonce: inputs.nonce,
		method: inputs.method,
		uri: inputs.uri,
		host: inputs.host,
		port: inputs.port,
		ext: inputs.ext,
		lineEnd: inputs.lineEnd,
		ending: inputs.ending,
		key: inputs.key,
		keyForm: inputs.keyForm,
		hash: inputs.hash,
		encoding: inputs.encoding
	};
}

/** `inputs` with the fields of `changed.bits` taken from `changed.inputs`, in the one shape. */
export function withChanges(
	inputs: SigningInputs,
	{ bits, inputs: values }: Changes
): SigningInputs {
	return {
		ts: bits & TS ? values.ts : inputs.ts,
		nonce: bits & NONCE ? values.nonce : inputs.nonce,
		method: bits & METHOD ? values.method : inputs.method,
		uri: bits & URI ? values.uri : inputs.uri,
		host: bits & HOST ? values.host : inputs.host,
		port: bits & PORT ? values.port : inputs.port,
		ext: bits & EXT ? values.ext : inputs.ext,
		lineEnd: bits & LINE_END ? values.lineEnd : inputs.lineEnd,
		ending: bits & ENDING ? values.ending : inputs.ending,
		key: bits & KEY ? values.key : inputs.key,
		keyForm: bits & KEY_FORM ? values.keyForm : inputs.keyForm,
		hash: bits & HASH ? values.hash : inputs.hash,
		encoding: bits & ENCODING ? values.encoding : inputs.encoding
	};
}

/** What a mistake changed: the fields (bits) where `inputs` are not the inputs it was given. */
export interface Changes {
	bits: number;
	inputs: SigningInputs;
}

/** The fields of `inputs` that are not those of `from` (by identity), as bits, with `inputs`. */
export function changes(inputs: SigningInputs, from: SigningInputs): Changes {
	const bits =
		(inputs.ts !== from.ts ? TS : 0) |
		(inputs.nonce !== from.nonce ? NONCE : 0) |
		(inputs.method !== from.method ? METHOD : 0) |
		(inputs.uri !== from.uri ? URI : 0) |
		(inputs.host !== from.host ? HOST : 0) |
		(inputs.port !== from.port ? PORT : 0) |
		(inputs.ext !== from.ext ? EXT : 0) |
		(inputs.lineEnd !== from.lineEnd ? LINE_END : 0) |
		(inputs.ending !== from.ending ? ENDING : 0) |
		(inputs.key !== from.key ? KEY : 0) |
		(inputs.keyForm !== from.keyForm ? KEY_FORM : 0) |
		(inputs.hash !== from.hash ? HASH : 0) |
		(inputs.encoding !== from.encoding ? ENCODING : 0);
	return { bits, inputs };
}

/** Whether two inputs write the same base string: every line, and how the lines end. */
export function sameLines(a: SigningInputs, b: SigningInputs): boolean {
	return (
		a.ts === b.ts &&
		a.nonce === b.nonce &&
		a.method === b.method &&
		a.uri === b.uri &&
		a.host === b.host &&
		a.port === b.port &&
		a.ext === b.ext &&
		a.lineEnd === b.lineEnd &&
		a.ending === b.ending
	);
}

/** The characters of a variant's base string (line ends included) and of its key. */
export function workOf(inputs: SigningInputs): number {
	return (
		inputs.ts.length +
		inputs.nonce.length +
		inputs.method.length +
		inputs.uri.length +
		inputs.host.length +
		inputs.port.length +
		inputs.ext.length +
		inputs.key.length +
		8
	);
}

/** workOf(withChanges(inputs, changed)), without making the inputs. */
export function changedWork(inputs: SigningInputs, { bits, inputs: values }: Changes): number {
	return workOf(inputs) + charsOf(bits & LINE_BITS, values) - charsOf(bits & LINE_BITS, inputs);
}
