// readNdjsonLine reads a log's usual object by its names as written, and any other object by looking
// each name up whatever its case: the two ways give the same request for the same object.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readNdjsonLine } from '$lib/read/read-lines';

const AUTHORIZATION = 'MAC id="k",ts="1763800000",nonce="n",mac="m"';

/** The fields a line may hold, as written or in another case, and names that are no field. */
const name = fc.constantFrom(
	'method',
	'url',
	'authorization',
	'status',
	'time',
	'base_string',
	'URL',
	'Method',
	'AUTHORIZATION',
	'Status',
	'TIME',
	'Base_String',
	'client',
	'__proto__',
	'1'
);
const value = fc.oneof(
	fc.constantFrom(
		'GET',
		'post',
		'https://a.example/p?q=1',
		AUTHORIZATION,
		'',
		' ',
		'200',
		'2025-11-22T08:26:42Z'
	),
	fc.constantFrom(200, 401, 1763800000, 1.5, -1, null, true),
	fc.constant({ nested: 1 })
);

/** What readNdjsonLine read before: every name looked up, the first name of a field kept. */
function expectedFields(object: Record<string, unknown>): Record<string, unknown> {
	const fields = ['method', 'url', 'authorization', 'status', 'time', 'base_string'];
	const found: Record<string, unknown> = {};
	for (const key of Object.keys(object)) {
		const field = fields.includes(key) ? key : fields.find((f) => f === key.toLowerCase());
		if (field !== undefined && !(field in found)) found[field] = object[key];
	}
	return found;
}

describe('readNdjsonLine', () => {
	it('takes the first name of a field in any case, and the same from the usual object', () => {
		fc.assert(
			fc.property(fc.array(fc.tuple(name, value), { maxLength: 9 }), (entries) => {
				const line = `{${entries.map(([key, v]) => `${JSON.stringify(key)}:${JSON.stringify(v)}`).join(',')}}`;
				const object = JSON.parse(line) as Record<string, unknown>;
				const fields = expectedFields(object);
				// The same object with each field under its own name only, in the order found.
				const usual = JSON.stringify(fields);
				const read = readNdjsonLine(7, line);
				expect(readNdjsonLine(7, usual)).toStrictEqual(read);
				if (read.kind === 'request') {
					expect(read.request.url).toBe(fields.url);
					expect(read.request.authorization).toBe(fields.authorization);
				}
			}),
			{ numRuns: 2000 }
		);
	});

	it('reads a field written in another case', () => {
		const read = readNdjsonLine(
			3,
			JSON.stringify({
				URL: 'https://a.example/p',
				url: 'https://b.example/',
				Authorization: AUTHORIZATION
			})
		);
		expect(read).toMatchObject({
			kind: 'request',
			request: {
				number: 3,
				url: 'https://a.example/p',
				authorization: AUTHORIZATION,
				method: 'GET'
			}
		});
	});
});
