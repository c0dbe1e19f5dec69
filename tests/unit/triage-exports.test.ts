import { describe, expect, it } from 'vitest';
import {
	CSV_COLUMNS,
	csvCell,
	summaryMarkdown,
	triageText,
	verdictsCsv,
	type VerdictRecord
} from '$lib/triage';
import { triageLogText } from '../bench/triage-log.js';
import { parseCsv } from './parse-csv';
import { createHmac } from 'node:crypto';

function record(overrides: Partial<VerdictRecord>): VerdictRecord {
	return {
		number: 1,
		method: 'GET',
		url: 'https://open.tapapis.cn/account/profile/v1?client_id=c',
		kid: 'kid-0123456789',
		verdict: 'match',
		mistake: null,
		refusal: null,
		status: 200,
		authorization: '',
		uriForm: 'as-written',
		sentAt: null,
		clock: null,
		nonceFirstUsedAt: null,
		client: 0,
		unreadable: null,
		...overrides
	};
}

describe('the CSV of the verdicts', () => {
	it('quotes what needs quoting and defuses formulas, and reads back cell for cell', () => {
		const hostile = [
			'=HYPERLINK("https://evil","click")',
			'+1+1',
			'-2',
			'@SUM(A1)',
			'\tTAB',
			'a,b',
			'line\r\nbreak',
			'say "hi"'
		];
		const records = hostile.map((method, index) =>
			record({ number: index + 1, method, url: `https://x.example/${method}` })
		);
		const rows = parseCsv(verdictsCsv(records));
		expect(rows[0]).toEqual([...CSV_COLUMNS]);
		expect(rows.slice(1).map((row) => row[1])).toEqual([
			`'=HYPERLINK("https://evil","click")`,
			"'+1+1",
			"'-2",
			"'@SUM(A1)",
			"'\tTAB",
			'a,b',
			'line\r\nbreak',
			'say "hi"'
		]);
		for (const row of rows.slice(1)) {
			expect(row).toHaveLength(CSV_COLUMNS.length);
			expect(row.every((cell) => !/^[=+\-@\t\r]/.test(cell))).toBe(true);
		}
		expect(csvCell(-30)).toBe('-30');
		expect(csvCell(null)).toBe('');
		expect(csvCell(false)).toBe('false');
	});

	it('masks the kid, also where the URL repeats it, unless asked to reveal it', () => {
		const kid = 'kidSECRET0123456789';
		const one = record({ kid, url: `https://open.tapapis.cn/a?access_token=${kid}&client_id=c` });
		const text = verdictsCsv([one]);
		expect(text).not.toContain(kid);
		const [, row] = parseCsv(text);
		expect(row?.[3]).toBe('kidS...89');
		expect(row?.[2]).toBe('https://open.tapapis.cn/a?access_token=kidS...89&client_id=c');
		expect(verdictsCsv([one], { revealKid: true })).toContain(kid);
	});
});

describe('the exports of a whole triage', () => {
	it('hold no mac_key and no kid in full, and the Markdown states every group count', async () => {
		const log = triageLogText({ requests: 1500, faultRate: 0.05, seed: 4 });
		const records: VerdictRecord[] = [];
		const summary = await triageText(log.text, log.keys, {
			onVerdicts: (batch) => void records.push(...batch)
		});
		const csv = verdictsCsv(records);
		const markdown = summaryMarkdown(summary, { createdAt: new Date('2026-11-22T00:00:00Z') });
		const secrets = log.keys
			.trim()
			.split('\n')
			.flatMap((line: string) => line.split(' '));
		expect(secrets).toHaveLength(40);
		for (const secret of secrets) {
			expect(csv).not.toContain(secret);
			expect(markdown).not.toContain(secret);
		}
		expect(markdown).toContain(`| match | ${log.expected.match} |`);
		expect(markdown).toContain(`| signature right, refused | ${log.expected.refused} |`);
		expect(markdown).toContain(`| mismatch | ${log.expected.mismatch} |`);
		expect(markdown).toContain(`| no key for kid | ${log.expected.noKey} |`);
		expect(markdown).toContain(`| unreadable | ${log.expected.unreadable} |`);
		expect(markdown).toContain(`| \`query-dropped\` | ${log.expected.mistakes['query-dropped']} |`);
		expect(markdown).toContain(`| unexplained | ${log.expected.unexplained} |`);
		expect(markdown).toContain(
			`ts outside ±300 s of the logged time: ${log.expected.outsideWindow} of ${log.expected.withLoggedTime}`
		);
		expect(markdown).toContain(`nonce used again by the same kid: ${log.expected.noncesReused}`);
		expect(parseCsv(csv)).toHaveLength(log.expected.requests + 1);
		// A page passes its own labels for the mistakes.
		expect(summaryMarkdown(summary, { mistakeLabel: (id) => `label of ${id} | piped` })).toContain(
			'| label of crlf \\| piped |'
		);
	});
});

describe('kids in the exports', () => {
	// Signed here with node:crypto, not with the tool's own signer.
	function signed(kid: string, key: string, n: number): string {
		const ts = String(1_700_000_000 + n);
		const nonce = `nonce-${n}`;
		const uri = `/account/profile/v1?client_id=c&n=${n}`;
		const base = `${ts}\n${nonce}\nGET\n${uri}\nopen.tapapis.cn\n443\n\n`;
		const mac = createHmac('sha1', key).update(base).digest('base64');
		return `curl 'https://open.tapapis.cn${uri}' -H 'Authorization: MAC id="${kid}",ts="${ts}",nonce="${nonce}",mac="${mac}"'`;
	}

	it("keep short kids apart, masked, in the Summary's Kids table and the CSV", async () => {
		// Nine customers whose kids are short (the case where every row read `<kid>`).
		const kids = Array.from({ length: 9 }, (_, index) => `cust-${index + 1}`);
		const text = kids.map((kid, index) => signed(kid, `key-${index}`, index)).join('\n');
		const keys = kids.map((kid, index) => `${kid} key-${index}`).join('\n');
		const records: VerdictRecord[] = [];
		const summary = await triageText(text, keys, {
			onVerdicts: (batch) => void records.push(...batch)
		});
		expect(records.map((r) => r.verdict)).toEqual(kids.map(() => 'match'));
		const markdown = summaryMarkdown(summary);
		const rows = markdown.split('\n').filter((line) => /^\| cu\.\.\.\d \|/.test(line));
		expect(rows).toHaveLength(9);
		expect(new Set(rows.map((row) => row.split('|')[1])).size).toBe(9);
		expect(markdown).not.toContain('<kid>');
		for (const kid of kids) expect(markdown).not.toContain(kid);
		const csvKids = parseCsv(verdictsCsv(records))
			.slice(1)
			.map((row) => row[CSV_COLUMNS.indexOf('kid')]);
		expect(csvKids).toEqual(kids.map((_, index) => `cu...${index + 1}`));
		// Shown in full when asked, as the CLI's --reveal-kid and the page's "Show kids" ask.
		expect(summaryMarkdown(summary, { revealKid: true })).toContain('| cust-9 |');
	});

	it('say which kid makes which mistake, in the Markdown too', async () => {
		const kid = 'cust-query';
		const other = 'cust-key';
		// cust-query signs line 4 without its query; cust-key signs with another key (unexplained).
		const ts = String(1_700_000_001);
		const base = `${ts}\nnonce-1\nGET\n/account/profile/v1\nopen.tapapis.cn\n443\n\n`;
		const mac = createHmac('sha1', 'key-q').update(base).digest('base64');
		const lines = [
			`curl 'https://open.tapapis.cn/account/profile/v1?client_id=c&n=1' -H 'Authorization: MAC id="${kid}",ts="${ts}",nonce="nonce-1",mac="${mac}"'`,
			signed(other, 'another-key', 2),
			signed(other, 'another-key', 3)
		];
		const summary = await triageText(lines.join('\n'), `${kid} key-q\n${other} key-k`);
		const markdown = summaryMarkdown(summary, { revealKid: true });
		const section = markdown.slice(markdown.indexOf('## Mismatches by kid and mistake'));
		expect(section).toContain('| cust-key | unexplained | 2 |');
		expect(section).toContain('| cust-query | `query-dropped` | 1 |');
		// Kids with the most mismatches first.
		expect(section.indexOf('cust-key')).toBeLessThan(section.indexOf('cust-query'));
	});
});
