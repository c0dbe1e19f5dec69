// /triage's first use (issue 43 §4): when a run ends the Summary comes into view, its kid × mistake
// table counts each kid's mismatches by mistake, and at 1280 px the Verdicts show mistake, URL and
// kid without scrolling sideways.
import { createHmac } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { failOnPageErrors } from './page-errors';
import { summaryCounts } from './triage-input';

const keyOf = (kid: string) => `key-of-${kid}-Wd3`;

/** A request of `kid` as an NDJSON line, signed here with node:crypto the way `how` says. */
function line(kid: string, n: number, how: 'hex' | 'crlf'): string {
	const ts = String(Math.floor(Date.now() / 1000));
	const nonce = `bm9uY2Ut${n}`;
	const uri = `/account/profile/v1?client_id=c&n=${n}`;
	const lines = [ts, nonce, 'GET', uri, 'open.tapapis.cn', '443', ''];
	const base =
		how === 'crlf' ? lines.map((l) => `${l}\r\n`).join('') : lines.map((l) => `${l}\n`).join('');
	const digest = createHmac('sha1', keyOf(kid)).update(base);
	const mac = how === 'hex' ? digest.digest('hex') : digest.digest('base64');
	const authorization = `MAC id="${kid}",ts="${ts}",nonce="${nonce}",mac="${mac}"`;
	return JSON.stringify({ method: 'GET', url: `https://open.tapapis.cn${uri}`, authorization });
}

// customer-alpha: two in hex, one with CRLF; customer-bravo: one in hex.
const LOG = [
	line('customer-alpha', 1, 'hex'),
	line('customer-alpha', 2, 'hex'),
	line('customer-alpha', 3, 'crlf'),
	line('customer-bravo', 4, 'hex')
].join('\n');
const KEYS = ['customer-alpha', 'customer-bravo'].map((kid) => `${kid} ${keyOf(kid)}`).join('\n');

async function triage(page: Page) {
	failOnPageErrors(page);
	await page.setViewportSize({ width: 1280, height: 800 });
	await page.goto('./triage');
	await page.getByRole('textbox', { name: 'Requests', exact: true }).fill(LOG);
	await page.getByRole('textbox', { name: 'Keys', exact: true }).fill(KEYS);
	await page.getByRole('button', { name: 'Triage', exact: true }).click();
	expect(await summaryCounts(page, 'Summary')).toMatchObject({ mismatch: '4' });
}

test('when a run ends the Summary comes into view, with mismatches by kid and mistake', async ({
	page
}) => {
	await triage(page);
	await expect(page.getByRole('heading', { name: 'Summary', exact: true })).toBeInViewport();

	const table = page.getByRole('table', { name: 'Mismatches by kid and mistake' });
	const headers = (await table.getByRole('columnheader').allTextContents()).map((t) => t.trim());
	expect(headers).toEqual(['kid', 'digest in hex', 'lines end with CRLF']);
	const row = (kid: string) =>
		table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: kid }) });
	await expect(row('cust...ha').getByRole('cell')).toHaveText(['2', '1']);
	await expect(row('cust...vo').getByRole('cell')).toHaveText(['1', '0']);
	// "Show kids" shows them in full here too.
	await page.getByRole('checkbox', { name: 'Show kids' }).check();
	await expect(row('customer-alpha').getByRole('cell')).toHaveText(['2', '1']);
});

test('at 1280×800 the Verdicts show mistake, URL and kid without scrolling sideways', async ({
	page
}) => {
	await triage(page);
	const verdicts = page.getByRole('table', { name: 'Verdicts' });
	for (const name of ['Mistake', 'URL', 'kid']) {
		const box = await verdicts.getByRole('columnheader', { name, exact: true }).boundingBox();
		expect(box, name).not.toBeNull();
		expect((box?.x ?? 0) + (box?.width ?? 0), name).toBeLessThanOrEqual(1280);
	}
	const first = verdicts.getByRole('row').nth(1);
	await expect(first.getByRole('cell').nth(1)).toHaveText('digest in hex');
	await expect(first.getByRole('cell').nth(2)).toContainText('open.tapapis.cn/account/profile/v1');
	await expect(first.getByRole('cell').nth(3)).toHaveText(/^cust\.\.\./);
});
