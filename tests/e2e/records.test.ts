// What the pages say of a file that is not what it claims, and of a record that cannot be read
// (issue 23 §2): /triage says where reading stopped and why, in English and Chinese, its Summary
// names the new reasons; /verify lists a HAR's bad entry as a row that says why when opened.
import { expect, test } from '@playwright/test';
import { expectNoEnglishProse } from './english-prose';
import { failOnPageErrors } from './page-errors';
import { KEY, HOST, BASIC, ts, authorization } from './customer-requests';
import { chooseFile, summaryCounts } from './triage-input';

const KEYS = `kid-of-a-customer-1234 ${KEY}`;

function entry(n: number): string {
	const path = `${BASIC}&n=${n}`;
	return JSON.stringify({
		startedDateTime: new Date(Number(ts) * 1000).toISOString(),
		request: {
			method: 'GET',
			url: `https://${HOST}${path}`,
			headers: [{ name: 'authorization', value: authorization(path, `bm9uY2Ut${n}`) }]
		},
		response: { status: 200, content: { text: '{"ok":true}' } }
	});
}

const har = (entries: string[]) => `{"log":{"version":"1.2","entries":[${entries.join(',')}]}}`;
const DEEP = `{"request":${'['.repeat(5000)}${']'.repeat(5000)}}`;

const NAMES = {
	en: { path: './triage', file: 'Requests file', keys: 'Keys', summary: 'Summary' },
	'zh-CN': { path: './zh-CN/triage', file: '请求文件', keys: '密钥', summary: '汇总' }
} as const;

async function triageFile(
	page: import('@playwright/test').Page,
	buffer: Buffer,
	language: keyof typeof NAMES = 'en'
) {
	const names = NAMES[language];
	await page.goto(names.path);
	await chooseFile(page, names.file, { name: 'customer.log', mimeType: 'text/plain', buffer });
	await page.getByRole('textbox', { name: names.keys, exact: true }).fill(KEYS);
	await page
		.getByRole('button', { name: language === 'en' ? 'Triage' : '排查', exact: true })
		.click();
}

test.beforeEach(({ page }) => failOnPageErrors(page));

test('a HAR cut short: the entries before the cut are counted, and the page says where it stopped', async ({
	page
}) => {
	const whole = har([entry(1), entry(2), entry(3)]);
	const cut = whole.slice(0, whole.indexOf('n=3') + 1);
	await triageFile(page, Buffer.from(cut));
	await expect(page.getByRole('alert')).toHaveText(
		`The HAR is cut short: the file ends at byte ${Buffer.byteLength(cut)}, in entry 3. The entries before it are in the results.`
	);
	const counts = await summaryCounts(page, 'Summary');
	expect(counts).toMatchObject({ match: '2', unreadable: '1', 'HAR cut short': '1' });
});

test('binary data: the page says so and where, and reads nothing', async ({ page }) => {
	const bytes = Buffer.from([0x32, 0x30, 0x32, 0x36, 0x00, 0xff, 0x13, 0x00, 0x9c]);
	await triageFile(page, bytes);
	await expect(page.getByRole('alert')).toHaveText(
		'The file is binary data, not text (a NUL byte at byte 4): nothing was read.'
	);
	expect(await summaryCounts(page, 'Summary')).toMatchObject({
		unreadable: '1',
		'binary data, not text': '1'
	});
});

test('an empty file: the page says it is empty', async ({ page }) => {
	await triageFile(page, Buffer.from('\r\n\r\n'));
	await expect(page.getByRole('alert')).toHaveText(
		'The file is empty: there is nothing in it to triage.'
	);
});

test('the Chinese page: an entry nested too deep is one row of its own, and a UTF-32 file is refused by name', async ({
	page
}) => {
	await triageFile(page, Buffer.from(har([entry(1), DEEP, entry(3)])), 'zh-CN');
	expect(await summaryCounts(page, '汇总')).toMatchObject({
		一致: '2',
		无法读取: '1',
		条目嵌套过深: '1'
	});
	await expectNoEnglishProse(page);

	const utf32 = Buffer.concat([
		Buffer.from([0xff, 0xfe, 0x00, 0x00]),
		Buffer.from(Array.from('{"url":"x"}\n', (char) => [char.charCodeAt(0), 0, 0, 0]).flat())
	]);
	await triageFile(page, utf32, 'zh-CN');
	await expect(page.getByRole('alert')).toHaveText(
		'文件编码为 UTF-32LE，无法读取：请另存为 UTF-8 后重试。'
	);
	await expectNoEnglishProse(page);
});

test('/verify lists a HAR whose entry 2 is broken: the others are checked, entry 2 says why', async ({
	page
}) => {
	await page.goto('./verify');
	await expect(page.getByRole('textbox', { name: 'mac_key' })).toBeEditable();
	await page
		.getByRole('textbox', { name: 'Signed request' })
		.fill(har([entry(1), '{"request": {"url": "x"]}', entry(3)]));
	await page.getByRole('textbox', { name: 'mac_key' }).fill(KEY);
	const rows = page.getByRole('table', { name: 'Requests in the paste' }).getByRole('row');
	await expect(rows).toHaveCount(4);
	for (const [index, verdict] of [
		[1, 'Match'],
		[2, 'Cannot be checked'],
		[3, 'Match']
	] as const) {
		await expect(rows.nth(index).getByRole('cell').nth(0)).toHaveText(String(index));
		await expect(rows.nth(index).getByRole('cell').nth(1)).toHaveText(verdict);
	}
	await page.getByRole('button', { name: 'Open request 2' }).click();
	await expect(page.getByRole('textbox', { name: 'Signed request' })).toHaveAccessibleDescription(
		/Entry 2 of the HAR cannot be read: its JSON is broken\. The other entries are read\./
	);
});
