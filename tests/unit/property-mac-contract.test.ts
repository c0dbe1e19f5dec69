// Property tests of the protocol core's contract with callers in JavaScript, where nothing checks
// types: every public function, given any value for any argument (a field left out, null, a number,
// an object without a prototype), returns or throws a MacInputError; no TypeError escapes. Every
// MacInputError caught carries a code of the message table whose English text is its message.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as core from '$lib/mac';
import { MAC_ERROR_MESSAGES, MacInputError, macErrorMessage } from '$lib/mac';
import { RUNS, headerParams, hostile, outcome } from './property-arbitraries';

/** Any JavaScript value, the awkward ones weighted in. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
	fc.anything({
		withNullPrototype: true,
		withBoxedValues: true,
		withBigInt: true,
		withDate: true,
		withMap: true,
		withSet: true,
		withTypedArray: true,
		withSparseArray: true,
		maxDepth: 2
	}),
	fc.constantFrom(undefined, null, NaN, -1, Infinity, 0, '', Symbol('s'), () => 'x', [], {}),
	fc.constant(Object.create(null) as unknown),
	hostile
);

/** An object like `shape` with some fields left out and others replaced by any value. */
function damaged<T extends object>(shape: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
	return fc
		.tuple(
			shape,
			fc.array(fc.tuple(fc.nat(), fc.option(anyValue, { nil: undefined }), fc.boolean()), {
				maxLength: 4
			})
		)
		.map(([object, edits]) => {
			const copy: Record<string, unknown> = { ...(object as Record<string, unknown>) };
			const keys = Object.keys(copy);
			for (const [at, value, remove] of edits) {
				const key = keys[at % keys.length];
				if (key === undefined) continue;
				if (remove) delete copy[key];
				else copy[key] = value;
			}
			return copy;
		});
}

const baseInput = fc.record({
	ts: fc.string(),
	nonce: fc.string(),
	method: fc.constantFrom('GET', 'get'),
	uri: fc.string(),
	host: fc.string(),
	port: fc.oneof(fc.string(), fc.nat()),
	ext: fc.string()
});

/** Sync functions: each takes its arguments from an array of arbitrary values. */
const SYNC: Record<string, (args: unknown[]) => unknown> = {
	toBase64: ([a]) => core.toBase64(a as Uint8Array),
	toBase64Url: ([a]) => core.toBase64Url(a as Uint8Array),
	isBase64: ([a]) => core.isBase64(a as string),
	fromBase64: ([a]) => core.fromBase64(a as string),
	toHex: ([a]) => core.toHex(a as Uint8Array),
	utf8Bytes: ([a]) => core.utf8Bytes(a as string),
	baseString: ([a]) => core.baseString(a as core.BaseStringInput),
	baseStringLines: ([a]) => core.baseStringLines(a as core.BaseStringInput),
	isSupportedAlgorithm: ([a]) => core.isSupportedAlgorithm(a as string),
	authorizationHeader: ([a, b]) =>
		core.authorizationHeader(a as core.MacHeaderParams, b as core.HeaderStyle),
	checkHeaderValue: ([a, b]) => core.checkHeaderValue(a as string, b as string),
	parseAuthorization: ([a]) => core.parseAuthorization(a as string),
	findMacHeader: ([a]) => core.findMacHeader(a as string),
	requestTarget: ([a, b]) => core.requestTarget(a as string, b as core.RequestTargetOptions),
	writtenTarget: ([a]) => core.writtenTarget(a as string),
	browserRewrites: ([a]) => core.browserRewrites(a as string),
	urlRewrites: ([a]) => core.urlRewrites(a as string),
	isTimestamp: ([a]) => core.isTimestamp(a as string),
	randomNonce: ([a]) => core.randomNonce(a as core.NonceKind),
	padTimestamp: ([a, b]) => core.padTimestamp(a as string, b as boolean),
	timestamp: ([a, b]) => core.timestamp(a as number, b as { pad10?: boolean }),
	timestampToDate: ([a]) => core.timestampToDate(a as string),
	parseCredential: ([a]) => core.parseCredential(a as string),
	curlCommand: ([a, b]) => core.curlCommand(a as string, b as string),
	shellQuote: ([a]) => core.shellQuote(a as string),
	pastedJson: ([a]) => core.pastedJson(a as string),
	cmdCurlCommand: ([a, b]) => core.cmdCurlCommand(a as string, b as string),
	cmdQuote: ([a]) => core.cmdQuote(a as string),
	powershellCommand: ([a, b]) => core.powershellCommand(a as string, b as string),
	powershellQuote: ([a]) => core.powershellQuote(a as string),
	macErrorMessage: ([a, b, c]) =>
		core.macErrorMessage(a as core.MacErrorCode, b as never, c as core.MacErrorMessages)
};

/** For each function, arguments shaped like real calls but damaged, besides wholly arbitrary ones. */
const NEAR_MISS: Partial<Record<string, fc.Arbitrary<unknown[]>>> = {
	authorizationHeader: fc.tuple(damaged(headerParams), fc.oneof(anyValue, fc.constant({}))),
	baseString: fc.tuple(damaged(baseInput)),
	baseStringLines: fc.tuple(damaged(baseInput)),
	requestTarget: fc.tuple(
		fc.oneof(fc.webUrl(), hostile),
		fc.oneof(anyValue, fc.constant({ uri: 'as-written' }))
	),
	macErrorMessage: fc.tuple(
		fc.constantFrom(...Object.keys(MAC_ERROR_MESSAGES)),
		fc.oneof(
			anyValue,
			fc.dictionary(fc.constantFrom('field', 'names', 'issues', 'code'), anyValue)
		),
		fc.oneof(fc.constant(undefined), anyValue)
	)
};

describe('the core fails only with MacInputError (property)', () => {
	it('covers every function the core exports', () => {
		const functions = Object.entries(core)
			.filter(([, value]) => typeof value === 'function' && !/^[A-Z]/.test(value.name))
			.map(([name]) => name)
			.filter((name) => !['attempt', 'hmac', 'sign'].includes(name));
		expect(functions.sort()).toEqual(Object.keys(SYNC).sort());
	});

	for (const [name, call] of Object.entries(SYNC)) {
		it(`${name} returns or throws a MacInputError for any arguments`, () => {
			const args = fc.oneof(
				fc.array(anyValue, { maxLength: 3 }),
				NEAR_MISS[name] ?? fc.array(anyValue, { maxLength: 3 })
			);
			fc.assert(
				fc.property(args, (values) => {
					expect(typeof outcome(() => call(values)).ok).toBe('boolean');
				}),
				RUNS
			);
		});
	}

	it('authorizationHeader names the field left out instead of failing inside', () => {
		for (const field of ['id', 'ts', 'nonce', 'mac'] as const) {
			const params: Record<string, string> = { id: 'k', ts: '1', nonce: 'n', mac: 'm=' };
			delete params[field];
			const result = outcome(() => core.authorizationHeader(params as never));
			expect(result.ok).toBe(false);
			if (!result.ok) {
				expect(result.error.field).toBe(field);
				expect(result.error.message).toBe(`${field} is missing.`);
			}
		}
	});

	it('hmac and sign reject only with a MacInputError for any arguments', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.oneof(anyValue, fc.string({ maxLength: 8 }), fc.uint8Array({ maxLength: 8 })),
				fc.oneof(anyValue, fc.string({ maxLength: 8 })),
				fc.oneof(anyValue, fc.constantFrom('SHA-1', 'SHA-256', 'MD5', 'sha-1')),
				async (key, text, hash) => {
					for (const run of [
						() => core.hmac(key as string, text as string, hash as 'SHA-1'),
						() => core.sign(key as string, text as string)
					]) {
						try {
							await run();
						} catch (error) {
							expect(error).toBeInstanceOf(MacInputError);
							const { code, params, message } = error as MacInputError;
							expect(Object.keys(MAC_ERROR_MESSAGES)).toContain(code);
							expect(message).toBe(macErrorMessage(code, params));
						}
					}
				}
			),
			{ numRuns: 150 }
		);
	});

	it('attempt turns a MacInputError into an outcome and passes any other error through', () => {
		fc.assert(
			fc.property(anyValue, (thrown) => {
				const typed = new MacInputError('url', 'bad');
				expect(
					core.attempt(() => {
						throw typed;
					})
				).toEqual({ ok: false, error: typed });
				if (thrown instanceof MacInputError) return;
				let caught: unknown = 'nothing';
				try {
					core.attempt(() => {
						throw thrown;
					});
				} catch (error) {
					caught = error;
				}
				expect(caught).toBe(thrown);
			}),
			RUNS
		);
	});
});
