import { expect, test } from '@playwright/test';
import { PLANTED_MISTAKES, triageLogText } from '../bench/triage-log.js';
import { violations } from './axe';
import { expectNoEnglishProse } from './english-prose';
import { failOnPageErrors } from './page-errors';
import { giveLog, summaryCounts } from './triage-input';

// The triage page in Chinese: the same flow as in English (tests/e2e/triage.test.ts), found by its
// Chinese names, with the same counts; a mismatch opens on the Chinese verify page.
const log = triageLogText({ requests: 2000, faultRate: 0.05, seed: 3 });
const { expected } = log;

const MISTAKE_LABELS: Record<(typeof PLANTED_MISTAKES)[number], string> = {
	'query-dropped': '未签算 query string',
	'host-other-deployment': '签算了另一部署的域名',
	'host-with-port': '域名带端口签算',
	'method-lower-case': '请求方法小写签算',
	'ext-line-dropped': '各行用 LF 连接，缺少末尾 LF',
	crlf: '各行以 CRLF 结尾',
	'digest-hex': '摘要为十六进制'
};

test.beforeEach(({ page }) => failOnPageErrors(page));
test.afterEach(({ page }) => expectNoEnglishProse(page));

test('the Chinese page triages a log: every count of the Summary, a filter, a mismatch opened on the verify page', async ({
	page
}) => {
	// A whole log in the page, read and diagnosed on a 2-core machine beside another test: minutes,
	// not the default half-minute, before the run is called stuck.
	await page.goto('./zh-CN/triage');
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('批量排查整份日志');
	await expect(page.getByRole('link', { name: '批量排查' })).toHaveAttribute(
		'aria-current',
		'page'
	);
	await expectNoEnglishProse(page);

	await page.getByRole('textbox', { name: '请求', exact: true }).fill(log.text);
	await page.getByRole('textbox', { name: '密钥', exact: true }).fill(log.keys);
	await page.getByRole('button', { name: '排查', exact: true }).click();

	const wanted: Record<string, string> = {
		一致: String(expected.match),
		'签名正确，但会被拒绝': String(expected.refused),
		'ts 超出时间范围（假设）': String(expected.outsideWindow),
		'随机数重复使用（规范未说明是否拒绝）': String(expected.noncesReused),
		不一致: String(expected.mismatch),
		'没有此 kid 的密钥': String(expected.noKey),
		无法读取: String(expected.unreadable),
		无法解释: String(expected.unexplained),
		'ts 超出假定的时间窗口（±300 秒）': String(expected.outsideWindow),
		'nonce 重复使用': String(expected.noncesReused)
	};
	for (const id of PLANTED_MISTAKES) wanted[MISTAKE_LABELS[id]] = String(expected.mistakes[id]);
	wanted['不是 JSON'] = String(expected.lines['not-json'].length);
	wanted['Authorization 请求头无法读取'] = String(expected.lines['bad-header'].length);
	expect(await summaryCounts(page, '汇总')).toEqual(wanted);
	await expect(page.getByRole('status').filter({ hasText: '格式：NDJSON。' })).toBeVisible();
	const progress = page.getByRole('progressbar', { name: '排查进度' });
	await expect(progress).toHaveAttribute('aria-valuenow', String(Buffer.byteLength(log.text)));

	const verdicts = page.getByRole('table', { name: '逐条结果', exact: true });
	await expect(verdicts).toHaveAttribute('aria-rowcount', String(expected.requests + 1));
	await page.getByLabel('按分组筛选').selectOption({ label: '不一致' });
	await expect(verdicts).toHaveAttribute('aria-rowcount', String(expected.mismatch + 1));
	await page.getByLabel('按分组筛选').selectOption({ label: MISTAKE_LABELS['digest-hex'] });
	await expect(verdicts).toHaveAttribute(
		'aria-rowcount',
		String(expected.mistakes['digest-hex'] + 1)
	);
	await page.getByRole('button', { name: '序号' }).click();
	await expect(verdicts.getByRole('columnheader', { name: '序号' })).toHaveAttribute(
		'aria-sort',
		'descending'
	);
	await expectNoEnglishProse(page);
	expect(await violations(page)).toEqual([]);

	const number = expected.lines['digest-hex'][0] ?? 0;
	await verdicts.getByRole('button', { name: `在校验页打开第 ${number} 个请求` }).click();
	await expect(page).toHaveURL(/\/zh-CN\/verify$/);
	await expect(page.getByRole('textbox', { name: '已签名的请求' })).toHaveValue(/client_id=/);
	await expect(page.getByRole('status').filter({ hasText: /^(一致|不一致)/ })).toContainText(
		'不一致'
	);
});

test('the Chinese page cancels a big run at once', async ({ page }) => {
	// A whole log in the page, read and diagnosed on a 2-core machine beside another test: minutes,
	// not the default half-minute, before the run is called stuck.
	const big = triageLogText({ requests: 100_000, seed: 4 });
	await giveLog(page, big, { name: 'big.ndjson', language: 'zh-CN' });
	await page.getByRole('button', { name: '排查', exact: true }).click();
	const progress = page.getByRole('progressbar', { name: '排查进度' });
	await expect
		.poll(async () => Number(await progress.getAttribute('aria-valuenow')))
		.toBeGreaterThan(0);
	await page.getByRole('button', { name: '取消' }).click();
	await expect(page.getByRole('status').filter({ hasText: '已取消。' })).toBeVisible();
	const stoppedAt = await progress.getAttribute('aria-valuenow');
	// Two frames after the status: a progress update already queued would have rendered by now.
	await page.evaluate(
		() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))
	);
	await expect(progress).toHaveAttribute('aria-valuenow', stoppedAt ?? '');
	expect(Number(stoppedAt)).toBeLessThan(Buffer.byteLength(big.text));
});
