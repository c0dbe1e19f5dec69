import { describe, expect, it } from 'vitest';
import { diffLoggedBaseString, readLoggedBaseString } from '$lib/diagnosis';
import { quickly } from './property-arbitraries';
import { englishAll } from './verify-english';

// The customer signed for http (port 80); the request went to https (443).
const expected =
	'1618221750\nbm9uY2Ux\nGET\n/account/profile/v1?client_id=abc123\nopen.tapapis.cn\n443\n\n';
const logged =
	"2021-04-12 10:02:30,118 DEBUG signer: base_string='1618221750\\nbm9uY2Ux\\nGET\\n/account/profile/v1?client_id=abc123\\nopen.tapapis.cn\\n80\\n\\n'";

describe('a base string pasted with its log line', () => {
	it('is taken out of the log line and its quotes, unescaped, and differs first on line 6 (port)', () => {
		const diff = diffLoggedBaseString(expected, logged);
		expect(diff.firstDifference).toBe(6);
		expect(diff.lines[5]).toMatchObject({ name: 'port', expected: '443', actual: '80' });
		expect(diff.lines.filter((line) => !line.same).map((line) => line.number)).toEqual([6]);
		expect(englishAll(diff.notes)[0]).toBe(
			'Took off: the log prefix "2021-04-12 10:02:30,118 DEBUG signer: base_string=" and the quotes.'
		);
		expect(englishAll(diff.notes)[1]).toBe(
			'The paste shows \\n as text: read as line breaks (untick below to compare as pasted).'
		);
		expect(diff.canUnescape).toBe(true);
	});

	it('says when the log line was written, read as UTC when it names no zone', () => {
		expect(readLoggedBaseString(logged).loggedAt).toEqual({
			ms: Date.UTC(2021, 3, 12, 10, 2, 30, 118),
			source: 'log',
			zoneKnown: false
		});
		const zoned = logged.replace('2021-04-12 10:02:30,118', '2021-04-12T18:02:30.118+08:00');
		expect(readLoggedBaseString(zoned).loggedAt).toMatchObject({
			ms: Date.UTC(2021, 3, 12, 10, 2, 30, 118),
			zoneKnown: true
		});
	});

	it('compares as pasted, quotes and prefix off, when the agent unticks the unescaping', () => {
		const read = readLoggedBaseString(logged, false);
		expect(read.text).toBe(
			'1618221750\\nbm9uY2Ux\\nGET\\n/account/profile/v1?client_id=abc123\\nopen.tapapis.cn\\n80\\n\\n'
		);
		expect(diffLoggedBaseString(expected, logged, false).firstDifference).toBe(1);
	});

	it('takes off text after the closing quote, and reads a JSON string in double quotes', () => {
		const read = readLoggedBaseString(
			'INFO base="1618221750\\n\\u00e9\\nGET\\n/p\\nh\\n443\\n\\n", mac="abc"'
		);
		expect(read.text).toBe('1618221750\né\nGET\n/p\nh\n443\n\n');
		expect(englishAll(read.tookOff)).toEqual([
			'the log prefix "INFO base="',
			'the quotes',
			'the text after them, ", mac="abc""'
		]);
	});

	it('takes a log prefix off a base string logged over real lines', () => {
		const read = readLoggedBaseString(`DEBUG string to sign: ${expected}`);
		expect(read.text).toBe(expected);
		expect(englishAll(read.tookOff)).toEqual(['the log prefix "DEBUG string to sign:"']);
	});

	it('leaves a base string that starts with its ts as it is, blanks and all', () => {
		for (const text of [expected, ` ${expected}`, 'abc\nx\n', 'b1618221750\nx']) {
			const read = readLoggedBaseString(text);
			expect(read.text).toBe(text);
			expect(englishAll(read.tookOff)).toEqual([]);
			expect(read.loggedAt).toBeNull();
		}
	});

	it('never takes a line of the base string for a prefix', () => {
		const escaped = '1618221750\\nn\\nGET\\n/p?client_id=123\\nh\\n443\\n\\n';
		expect(englishAll(readLoggedBaseString(`x${escaped}`).tookOff)).toEqual([]);
	});
});

describe('a huge logged paste', () => {
	it('is read and compared quickly (no quadratic search for the prefix or the quotes)', () => {
		for (const text of [
			`x=${'1\\n'.repeat(100_000)}`,
			`a ${'= '.repeat(100_000)}'1\\n${"\\'".repeat(50_000)}`,
			`${'a b: c= '.repeat(30_000)}1\\n`
		]) {
			quickly(() => diffLoggedBaseString(expected, text));
		}
	});
});
