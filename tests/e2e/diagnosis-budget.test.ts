import { createHmac } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { failOnPageErrors } from './page-errors';
import { giveLog, summaryCounts } from './triage-input';

// A mismatch whose URL is too long to diagnose (150 kB of query in a paste, which reads up to 200 kB,
// and 300 kB in a log; signed with a key nobody knows):
// /verify and /triage say "diagnosis stopped: too long" where they say what a diagnosis found, in
// English and in Chinese, and go on with the rest.
const KEY = 'k7Qx2mZpR4vN8sLw';
const KID = 'kid-budget-1';
const TS = '1780000000';

function request(index: number, bytes: number) {
	const uri = `/account/profile/v1?client_id=app-${index}&data=${'a%20b+c-'.repeat(bytes / 8)}`;
	const nonce = `bm9uY2U${index}`;
	const base = `${TS}\n${nonce}\nGET\n${uri}\nopen.tapapis.cn\n443\n\n`;
	const mac = createHmac('sha1', 'a-key-nobody-knows').update(base).digest('base64');
	return {
		method: 'GET',
		url: `https://open.tapapis.cn${uri}`,
		authorization: `MAC id="${KID}",ts="${TS}",nonce="${nonce}",mac="${mac}"`
	};
}

test.beforeEach(({ page }) => failOnPageErrors(page));

test('/verify: a mismatch with a 150 kB URL is a mismatch whose diagnosis stopped: too long', async ({
	page
}) => {
	await page.goto('./verify');
	await page
		.getByRole('textbox', { name: 'Signed request' })
		.fill(JSON.stringify(request(1, 150_000)));
	await page.getByRole('textbox', { name: 'mac_key' }).fill(KEY);
	const verdict = page.getByRole('status').filter({ hasText: 'Mismatch' });
	await expect(verdict).toContainText('Diagnosis stopped: too long.');
	await expect(
		page.getByRole('list', { name: 'Diagnosis' }).getByRole('listitem').first()
	).toContainText('Diagnosis stopped: too long.');
});

test('/zh-CN/verify says it in Chinese', async ({ page }) => {
	await page.goto('./zh-CN/verify');
	await page
		.getByRole('textbox', { name: '已签名的请求' })
		.fill(JSON.stringify(request(2, 150_000)));
	await page.getByRole('textbox', { name: 'mac_key' }).fill(KEY);
	await expect(
		page.getByRole('list', { name: '诊断' }).getByRole('listitem').first()
	).toContainText('诊断已停止：请求过长。');
});

test('/triage: the stopped one counted in the Summary under its name, the rest judged', async ({
	page
}) => {
	const lines = [request(3, 300_000), request(4, 40)].map((line) => JSON.stringify(line));
	await giveLog(page, { text: `${lines.join('\n')}\n`, keys: `${KID} ${KEY}\n` });
	await page.getByRole('button', { name: 'Triage', exact: true }).click();
	const counts = await summaryCounts(page, 'Summary');
	expect(counts).toMatchObject({
		mismatch: '2',
		'diagnosis stopped: too long': '1',
		unexplained: '1'
	});
});
