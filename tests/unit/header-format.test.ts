// A header not written as the spec shows it (§5.1) is said as a finding, "header format", and its
// values read as meant: never "no key" for a kid in single quotes, never a plain match.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { headerFormatOf, readAsMeant, recoveredParams } from '$lib/read/header-format';
import { MacInputError, parseAuthorization } from '$lib/mac';
import { parseSignedRequest } from '$lib/read/parse-signed-request';
import { refusalOf } from '$lib/diagnosis/service-answer';
import { triage } from '$lib/triage';

const KID = 'kid-format-1';
const KEY = 'a-mac-key-for-the-format-test';
const TS = '1764320000';
const NONCE = 'bm9uY2UtZm9ybWF0';
const URL_ = 'https://open.tapapis.cn/account/basic-info/v1?client_id=abc';

// Signed here by node:crypto over the spec's seven lines, not by our core.
const MAC = createHmac('sha1', KEY)
	.update(`${TS}\n${NONCE}\nGET\n/account/basic-info/v1?client_id=abc\nopen.tapapis.cn\n443\n\n`)
	.digest('base64');

const spec = `MAC id="${KID}",ts="${TS}",nonce="${NONCE}",mac="${MAC}"`;

describe('headerFormatOf', () => {
	it('finds nothing in the forms the spec shows', () => {
		expect(headerFormatOf(spec)).toBeNull();
		expect(headerFormatOf(spec.replaceAll('",', '", '))).toBeNull();
		expect(headerFormatOf(`Authorization: ${spec}`)).toBeNull();
	});

	it.each([
		['single quotes', spec.replaceAll('"', "'"), 'other-quotes'],
		['typographic quotes', spec.replace(/="([^"]*)"/g, '=\u201c$1\u201d'), 'other-quotes'],
		['no quotes', spec.replaceAll('"', ''), 'unquoted'],
		['Mac for MAC', spec.replace('MAC', 'Mac'), 'scheme'],
		['upper-case names', spec.replace('id=', 'ID='), 'name-case'],
		['blanks around =', spec.replace('ts=', 'ts = '), 'spacing'],
		['two spaces after a comma', spec.replace(',ts', ',  ts'), 'spacing'],
		['a tab after a comma', spec.replace(',ts', ',\tts'), 'spacing'],
		['a part twice', `${spec},id="${KID}"`, 'repeated'],
		['a part twice, the name in upper case', `${spec},ID="${KID}"`, 'repeated'],
		['a part the spec does not name', `${spec},realm="x"`, 'unknown-part'],
		['a draft-0 bodyhash', spec.replace(',mac', ',bodyhash="aGFzaA==",mac'), 'unknown-part']
	])('%s: %s', (_, header, issue) => {
		const format = headerFormatOf(header);
		expect(format?.issues).toContain(issue);
		expect(format?.seen.length).toBeGreaterThan(0);
	});

	it('leaves what is no MAC header to the core', () => {
		expect(headerFormatOf('Bearer abc')).toBeNull();
		expect(headerFormatOf('')).toBeNull();
	});

	it('reads hostile input in linear time', () => {
		const sizes = [50_000, 800_000];
		const times = sizes.map((size) => {
			const header = `MAC id=${"'".repeat(size)},ts=${' '.repeat(size)}"${'\\'.repeat(size)}`;
			// Parts by the thousand, each unknown or repeated: read and passed over, one pass.
			const parts = `MAC ${'x="",id="k",'.repeat(size / 10)}ts="1",nonce="n",mac="m"`;
			const start = performance.now();
			headerFormatOf(header);
			expect(readAsMeant(parts).params.id).toBe('k');
			return performance.now() - start;
		});
		// 16x the input: a quadratic reader takes 256x; allow for the noise of a busy machine.
		expect(times[1]).toBeLessThan(Math.max(times[0] ?? 0, 1) * 64);
	});
});

describe('values read as meant', () => {
	const meant = { id: KID, ts: TS, nonce: NONCE, mac: MAC };

	it.each([
		['the spec form', spec],
		['single quotes', spec.replaceAll('"', "'")],
		['typographic quotes', spec.replace(/="([^"]*)"/g, '=\u201c$1\u201d')],
		['no quotes', spec.replaceAll('"', '')],
		['Mac for MAC, with a header name', `authorization: ${spec.replace('MAC', 'mac')}`],
		['blanks', spec.replace('ts=', 'ts = ').replace(',nonce', ',   nonce')],
		['a part twice with one value', `${spec},ts="${TS}"`],
		['a part the spec does not name', `${spec}, realm="account"`]
	])('%s', (_, header) => {
		expect(readAsMeant(header).params).toEqual(meant);
	});

	it('keeps ext, which is judged as a refusal of its own', () => {
		const { params, format } = readAsMeant(`${spec},ext="x"`);
		expect(format).toBeNull();
		expect(params.ext).toBe('x');
	});

	it.each([
		['a part twice with two values', `${spec},ts="${TS}0"`, 'header_repeated'],
		['a part missing', spec.replace(/,mac="[^"]*"/, ''), 'header_missing'],
		[
			'a part missing, quotes of another kind',
			spec.replace(/,mac="[^"]*"/, '').replaceAll('"', "'"),
			'header_missing'
		]
	])('cannot recover %s: the reader says why', (_, header, code) => {
		expect(() => readAsMeant(header)).toThrow(MacInputError);
		try {
			readAsMeant(header);
		} catch (error) {
			expect((error as MacInputError).code).toBe(code);
		}
	});

	it('the core alone still refuses a part twice and an unknown part', () => {
		expect(() => parseAuthorization(`${spec},ts="${TS}"`)).toThrow(MacInputError);
		expect(() => parseAuthorization(`${spec},realm="x"`)).toThrow(MacInputError);
	});

	it('takes single and typographic quotes off the values', () => {
		const single = parseAuthorization(spec.replaceAll('"', "'"));
		expect(single.id).toBe(`'${KID}'`);
		expect(recoveredParams(single)).toEqual({ id: KID, ts: TS, nonce: NONCE, mac: MAC });
		const curly = parseAuthorization(spec.replace(/="([^"]*)"/g, '=\u201c$1\u201d'));
		expect(recoveredParams(curly)).toEqual({ id: KID, ts: TS, nonce: NONCE, mac: MAC });
	});

	it('a pasted header in single quotes: its values as meant, and the finding kept', () => {
		const request = parseSignedRequest(
			`curl '${URL_}' -H 'Authorization: ${spec.replaceAll('"', '\u2019')}'`
		);
		expect(request.headerFormat?.issues).toContain('other-quotes');
		expect(request.authorization.id).toBe(KID);
	});

	it('is a refusal the spec leaves open, after the certain ones', () => {
		const format = headerFormatOf(spec.replace('MAC', 'Mac'));
		expect(
			refusalOf({ ts: TS, outsideWindow: null, nonceFirstUsedAt: null, headerFormat: format })
		).toBe('header-format');
		expect(
			refusalOf({
				ts: `${TS}000`,
				outsideWindow: null,
				nonceFirstUsedAt: null,
				headerFormat: format
			})
		).toBe('ts-milliseconds');
	});
});

describe('triage of a header not in the spec form', () => {
	it('is refused for its format, not filed under "no key", nor a match', async () => {
		const lines = [
			spec,
			spec.replaceAll('"', "'"),
			spec.replace('MAC', 'Mac'),
			`${spec},id="${KID}"`,
			`${spec}, realm="account"`
		].map((authorization) =>
			JSON.stringify({
				time: '2025-11-28T08:53:20Z',
				method: 'GET',
				url: URL_,
				status: 200,
				authorization
			})
		);
		// A nonce of its own for each request (a nonce used again is a refusal of its own).
		const signed = lines.map((line, index) => {
			if (index === 0) return line;
			const nonce = `${NONCE}${index}`;
			const mac = createHmac('sha1', KEY)
				.update(
					`${TS}\n${nonce}\nGET\n/account/basic-info/v1?client_id=abc\nopen.tapapis.cn\n443\n\n`
				)
				.digest('base64');
			return line.replace(NONCE, nonce).replace(MAC, mac);
		});
		const summary = await triage(new Blob([signed.join('\n') + '\n']).stream(), `${KID} ${KEY}`, {
			nowMs: Date.parse('2025-11-28T08:53:30Z')
		});
		expect(summary.requests).toBe(5);
		expect(summary.groups.match).toBe(1);
		expect(summary.groups['no-key']).toBe(0);
		expect(summary.groups.refused).toBe(4);
		expect(summary.refusals).toEqual([{ id: 'header-format', count: 4 }]);
	});
});
