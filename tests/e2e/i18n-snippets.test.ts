// The code view on the Chinese page: its texts and the programs' comments in Chinese, and the
// program it shows still signs as the page does.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { failOnPageErrors } from './page-errors';
import { expectNoEnglishProse } from './english-prose';

const HAN = /\p{Script=Han}/u;

test('the Chinese code view: Chinese texts and comments, and its Node.js program prints the page’s header', async ({
	page
}) => {
	failOnPageErrors(page);
	await page.goto('./zh-CN/');
	// The header output, whatever its Chinese name: it is rendered once the page has hydrated.
	const header = page.getByRole('status').filter({ hasText: /^MAC id="/ });
	await expect(header).toBeVisible();
	await page.getByLabel('kid', { exact: true }).fill('kid-zh-1');
	await page.getByLabel('mac_key', { exact: true }).fill('秘密-key-1');
	await page.getByLabel('ts', { exact: true }).fill('1700000000');
	await page.getByLabel('nonce', { exact: true }).fill('bm9uY2Utbm9uY2U=');
	await expect(header).toContainText('id="kid-zh-1"');
	const signed = (await header.textContent()) ?? '';

	// The disclosure that lazily loads the code view (its summary belongs to the playground).
	await page.locator('details > summary', { hasText: /代码|Code/ }).click();
	await expect(page.getByRole('tablist', { name: '编程语言' })).toBeVisible();
	const code = page.getByRole('region', { name: 'Node.js 代码', exact: true });
	await expect(code).toContainText('签算');
	await expect(page.getByRole('paragraph').filter({ hasText: /^保存为/ })).toHaveText(
		"保存为 sign.mjs 后运行 MAC_KEY='…' node sign.mjs (Node.js 18+)"
	);

	await page.getByRole('checkbox', { name: '使用本页的 ts 和 nonce（与本页对照）' }).check();
	await expect(code).toContainText("const nonce = 'bm9uY2Utbm9uY2U=';");
	await expect(page.getByText('程序打印的请求头与本页相同')).toBeVisible();
	await expectNoEnglishProse(page);
	const program = (await code.textContent()) ?? '';
	// Every comment of the program is in Chinese.
	const comments = program.split('\n').filter((line) => /^\s*(?:\/\/|\/\*\*)/.test(line));
	expect(comments.length).toBeGreaterThan(5);
	expect(comments.filter((line) => !HAN.test(line))).toEqual([]);

	// The program the Chinese page shows, run: the same header as the page.
	const dir = mkdtempSync(join(tmpdir(), 'i18n-snippets-'));
	try {
		writeFileSync(join(dir, 'sign.mjs'), program);
		const printed = execFileSync('node', ['sign.mjs'], {
			cwd: dir,
			env: { PATH: process.env.PATH, MAC_KEY: '秘密-key-1', DRY_RUN: '1' },
			encoding: 'utf8'
		});
		expect(printed).toBe(`Authorization: ${signed}\n`);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}

	await page.getByRole('tab', { name: 'Go' }).click();
	await expect(page.getByRole('region', { name: 'Go 代码', exact: true })).toContainText(
		'// baseString 返回待签名字符串'
	);
	await expect(page.getByRole('button', { name: '下载 main.go', exact: true })).toHaveText('下载');
	await page.getByRole('checkbox', { name: '把 mac_key 写进代码' }).check();
	await expect(page.getByRole('region', { name: 'Go 代码', exact: true })).toContainText(
		'macKey := "秘密-key-1"'
	);
	await expect(page.getByText('代码里有 mac_key：不要提交到版本库，也不要分享。')).toBeVisible();
});
