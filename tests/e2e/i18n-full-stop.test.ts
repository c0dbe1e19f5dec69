import { expect, test, type Page } from '@playwright/test';
import { triageLogText } from '../bench/triage-log.js';
import { failOnPageErrors } from './page-errors';

// Chinese text sets no space after "。": a full stop is full width already, and a space after it is a
// gap in the middle of a paragraph. Every Chinese page is scanned after its main action (the sign
// page's demo sent to the sandbox, each verify example, an error explained, a triage), where most
// sentences are put together from several messages.

/** Each "。" a person can see followed by a space, with the text around it. */
async function spacesAfterFullStops(page: Page): Promise<string[]> {
	return page.evaluate(() => {
		const found: string[] = [];
		// innerText: the text as laid out, with what CSS hides left out and spaces collapsed.
		const text = document.body.innerText;
		for (const match of text.matchAll(/。[ \u00a0\u3000]+\S/g))
			found.push(text.slice(Math.max(0, match.index - 30), match.index + match[0].length + 30));
		for (const element of document.querySelectorAll('[aria-label], [title], [placeholder]'))
			for (const name of ['aria-label', 'title', 'placeholder']) {
				const value = element.getAttribute(name) ?? '';
				if (/。[ \u00a0\u3000]+\S/.test(value)) found.push(`${name}="${value}"`);
			}
		return found;
	});
}

async function expectNoSpaceAfterFullStop(page: Page, when: string): Promise<void> {
	expect(await spacesAfterFullStops(page), when).toEqual([]);
}

test.beforeEach(({ page }) => failOnPageErrors(page));

test('/zh-CN/: the demo account signed and sent to the sandbox', async ({ page }) => {
	await page.goto('./zh-CN/');
	await expectNoSpaceAfterFullStop(page, 'the sign page as it opens');
	await page.getByRole('button', { name: '有 public_profile 的演示账号' }).click();
	await page.getByRole('button', { name: '发送', exact: true }).click();
	await expect(page.getByRole('status', { name: 'HTTP 状态码', exact: true })).toHaveText(/200/);
	await expectNoSpaceAfterFullStop(page, 'the sign page after a send');
	// The answer of a wrong key: the error explained.
	await page.getByLabel('mac_key', { exact: true }).fill('not-the-key');
	await page.getByRole('button', { name: '发送', exact: true }).click();
	await expect(page.getByRole('status', { name: 'HTTP 状态码', exact: true })).toHaveText(/401/);
	await expectNoSpaceAfterFullStop(page, 'the sign page after a 401');
});

test('/zh-CN/verify: every example', async ({ page }) => {
	await page.goto('./zh-CN/verify');
	await expectNoSpaceAfterFullStop(page, 'the verify page as it opens');
	const examples = page.getByRole('group', { name: '试试示例：' }).getByRole('button');
	const count = await examples.count();
	expect(count).toBeGreaterThan(3);
	for (let index = 0; index < count; index++) {
		const example = examples.nth(index);
		const name = (await example.textContent()) ?? '';
		await example.click();
		await expect(page.getByRole('status').filter({ hasText: /^(一致|不一致)/ })).toBeVisible();
		await expectNoSpaceAfterFullStop(page, `the verify example "${name}"`);
	}
});

test('/zh-CN/errors: each error body explained', async ({ page }) => {
	await page.goto('./zh-CN/errors');
	await expectNoSpaceAfterFullStop(page, 'the errors page as it opens');
	const body = page.getByRole('textbox', { name: '响应体' });
	for (const error of [
		'invalid_request',
		'invalid_time',
		'invalid_client',
		'access_denied',
		'forbidden',
		'not_found',
		'server_error'
	]) {
		await body.fill(
			JSON.stringify({
				data: { code: 1, error, error_description: 'x' },
				now: 1_763_800_000,
				success: false
			})
		);
		await expect(page.getByRole('region', { name: error, exact: true }).first()).toBeVisible();
		await expectNoSpaceAfterFullStop(page, `the errors page explaining ${error}`);
	}
});

test('/zh-CN/sandbox: the page, and a server that does not answer', async ({ page }) => {
	failOnPageErrors(page);
	await page.goto('./zh-CN/sandbox');
	await expectNoSpaceAfterFullStop(page, 'the sandbox page as it opens');
	await page.getByLabel('沙盒服务地址').fill('http://127.0.0.1:9');
	await page.getByRole('button', { name: '连接', exact: true }).click();
	await expect(page.getByRole('status', { name: '连接状态' })).toContainText('没有沙盒服务响应');
	await expectNoSpaceAfterFullStop(page, 'the sandbox page after a refused connection');
});

test('/zh-CN/triage: a log triaged', async ({ page }) => {
	const log = triageLogText({ requests: 300, faultRate: 0.3, seed: 5 });
	await page.goto('./zh-CN/triage');
	await expectNoSpaceAfterFullStop(page, 'the triage page as it opens');
	// Triage pressed with nothing given: the notes at the fields.
	await page.getByRole('button', { name: '排查', exact: true }).click();
	await expectNoSpaceAfterFullStop(page, 'the triage page with nothing given');
	await page.getByRole('textbox', { name: '请求', exact: true }).fill(log.text);
	await page.getByRole('textbox', { name: '密钥', exact: true }).fill(log.keys);
	await page.getByRole('button', { name: '排查', exact: true }).click();
	await expect(page.getByRole('status').filter({ hasText: '完成' })).toBeVisible();
	await expectNoSpaceAfterFullStop(page, 'the triage page after a run');
});
