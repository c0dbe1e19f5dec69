import { expect, test, type Page } from '@playwright/test';
import { failOnPageErrors } from './page-errors';
import { expectNoEnglishProse } from './english-prose';

// Sending, the sandbox, the response view and the error explainer on the Chinese page: the same
// round trips as in English (send.test.ts), found by their Chinese names.
const send = (page: Page) => page.getByRole('button', { name: '发送', exact: true });
const response = (page: Page) => page.getByRole('region', { name: '响应', exact: true });
const httpStatus = (page: Page) => page.getByRole('status', { name: 'HTTP 状态码', exact: true });
const explainer = (page: Page, code: string) =>
	page.getByRole('region', { name: code, exact: true });

async function openSandboxSettings(page: Page) {
	await page.getByText('沙盒设置与 Access Token 生命周期').click();
}

test.describe('the signing page in Chinese', () => {
	test.beforeEach(async ({ page }) => {
		failOnPageErrors(page);
		await page.goto('./zh-CN/');
		// The header is rendered only once the page has hydrated (its name is the playground's).
		await expect(page.getByRole('status', { name: /^Authorization/ }).first()).toBeVisible();
	});
	// Whatever state each test leaves (an answer, an error explained, a timeline), no English prose.
	test.afterEach(({ page }) => expectNoEnglishProse(page));

	test('the demo account sent to the sandbox: the response view in Chinese', async ({ page }) => {
		await send(page).click();
		await expect(httpStatus(page)).toHaveText('200 OK');
		await expect(
			page.getByRole('heading', { name: /^响应 · 200 OK · \d+毫秒 · 经由沙盒$/ })
		).toBeFocused();
		const fields = response(page).getByRole('definition');
		await expect(fields.filter({ hasText: 'oid-' })).toContainText(
			'授权用户在当前应用（游戏）中的唯一标识'
		);
		await expect(fields.filter({ hasText: 'uid-' })).toContainText(
			'授权用户在同一厂商所有应用中的唯一标识'
		);
		await expect(fields.filter({ hasText: 'Ada Demo' })).toContainText('用户名。');
		await expect(fields.filter({ hasText: '.svg' })).toContainText('用户头像图片地址。');
		await expect(response(page).getByRole('heading', { name: '响应体' })).toBeVisible();
		await expect(response(page).getByText('"success": true')).toBeVisible();
	});

	test('invalid_request: sent without the Authorization header', async ({ page }) => {
		await page.getByLabel('不带 Authorization 请求头发送').check();
		await send(page).click();
		await expect(httpStatus(page)).toHaveText('400 Bad Request');
		await expect(explainer(page, 'invalid_request')).toContainText('修正请求。');
		await expect(explainer(page, 'invalid_request')).toContainText('服务文档中为 HTTP 400');
	});

	test("invalid_time: the clock difference in Chinese, and re-signing with the server's time", async ({
		page
	}) => {
		await openSandboxSettings(page);
		await page.getByLabel('沙盒时钟比你的快（秒）').fill('1000');
		await send(page).click();
		const region = explainer(page, 'invalid_time');
		await expect(region).toContainText('请求服务器时间，重新构造。');
		await expect(region).toContainText(/服务器时钟比你的快 (99\d|100\d) 秒。/);
		await page.getByRole('button', { name: '用服务器时间重新签算并发送' }).click();
		await expect(httpStatus(page)).toHaveText('200 OK');
	});

	// ts 1000000000 is a whole number of days before the clock for one hour each day (01:46:40 to
	// 02:46:40 UTC), when the page rightly leaves the zero hours out.
	test('invalid_time: a fixed old ts, its distance written by Intl in Chinese', async ({
		page
	}) => {
		await page.getByLabel('ts', { exact: true }).fill('1000000000');
		await send(page).click();
		await expect(explainer(page, 'invalid_time')).toContainText(
			/比服务器时间慢 \d+天(?:\d+小时)?。/
		);
	});

	test("invalid_client: a client_id that is not the application's", async ({ page }) => {
		await page.getByLabel('client_id').fill('someone-elses-app');
		await send(page).click();
		await expect(httpStatus(page)).toHaveText('401 Unauthorized');
		await expect(explainer(page, 'invalid_client')).toContainText('修正 client_id。');
		await page.getByRole('button', { name: '前往 client_id' }).click();
		await expect(page.getByLabel('client_id')).toBeFocused();
	});

	test('access_denied: a wrong mac_key is a signature that does not match, not a reason to sign out', async ({
		page
	}) => {
		await page.getByLabel('mac_key', { exact: true }).fill('not-the-key');
		await send(page).click();
		await expect(explainer(page, 'access_denied')).toContainText('签名不一致');
		await expect(explainer(page, 'access_denied')).not.toContainText('退出本地的用户登录信息');
		await expect(page.getByRole('button', { name: '退出本地登录' })).toHaveCount(0);
		await expect(page.getByRole('link', { name: '在校验页查找错误' })).toBeVisible();
	});

	test('access_denied: a revoked token, and signing out locally', async ({ page }) => {
		await openSandboxSettings(page);
		await page.getByRole('button', { name: '用户注销授权' }).click();
		await send(page).click();
		await expect(explainer(page, 'access_denied')).toContainText(
			'退出本地的用户登录信息，引导用户重新登录。'
		);
		await page.getByRole('button', { name: '退出本地登录' }).click();
		await expect(page.getByLabel('kid', { exact: true })).toHaveValue('');
	});

	test('access_denied: a revoked token, and logging in again', async ({ page }) => {
		await openSandboxSettings(page);
		await page.getByRole('button', { name: '用户注销授权' }).click();
		await expect(page.getByText('状态：失效（用户注销了对当前应用的授权）')).toBeVisible();
		await send(page).click();
		await expect(explainer(page, 'access_denied')).toContainText('退出本地的用户登录信息');
		await page.getByRole('button', { name: '重新登录（沙盒）' }).click();
		await send(page).click();
		await expect(httpStatus(page)).toHaveText('200 OK');
	});

	test('forbidden: a basic_info-only token asking for the profile, not resubmitted', async ({
		page
	}) => {
		await page.getByLabel('kid', { exact: true }).fill('demo-kid-basic-8a2e');
		await page.getByLabel('mac_key', { exact: true }).fill('demo-mac-key-basic-Zr7Wm4');
		await send(page).click();
		await expect(httpStatus(page)).toHaveText('403 Forbidden');
		await expect(explainer(page, 'forbidden')).toContainText('不应重复提交请求');
		await expect(send(page)).toBeDisabled();
		await expect(
			page.getByText('服务对这个请求返回了 forbidden，按规范 §7 不应重复提交请求。')
		).toBeVisible();
	});

	test('not_found: an unknown path, not resubmitted', async ({ page }) => {
		await page
			.getByRole('textbox', { name: '请求 URL', exact: true })
			.fill('https://open.tapapis.cn/account/nothing/v1?client_id=demo-client-0001');
		await send(page).click();
		await expect(httpStatus(page)).toHaveText('404 Not Found');
		await expect(explainer(page, 'not_found')).toContainText('不应以相同参数重复提交请求。');
		await expect(send(page)).toBeDisabled();
	});

	test('server_error: three attempts on a timeline, then it stops and says so', async ({
		page
	}) => {
		await openSandboxSettings(page);
		await page.getByLabel('让接下来的 N 个请求失败').fill('5');
		await send(page).click();
		await expect(page.getByText('已尝试 3 次，服务仍然出错，已中断。')).toBeVisible();
		await expect(explainer(page, 'server_error')).toContainText(
			'稍等后重试，最多 3 次；仍失败则中断并告知用户。'
		);
		const attempts = page
			.getByRole('list', { name: 'server_error 后的重试' })
			.getByRole('listitem');
		await expect(attempts).toHaveCount(3);
		await expect(attempts.nth(0)).toContainText(
			/^第 1 次（共 3 次），\+0\.0 秒：500 server_error，用时 \d+ 毫秒$/
		);
	});

	test('a kid the sandbox never issued: the hand-over lands on the Chinese verify page', async ({
		page
	}) => {
		await page.getByLabel('kid', { exact: true }).fill('real-kid');
		await send(page).click();
		await expect(response(page)).toContainText('沙盒从未签发过 kid“real-kid”。');
		await page.getByRole('link', { name: '在校验页检查这个请求' }).click();
		await expect(page).toHaveURL(/\/zh-CN\/verify$/);
	});
});

test('the Chinese errors page explains a pasted body in Chinese', async ({ page }) => {
	failOnPageErrors(page);
	// The page's clock is the test's, so the body's age is exactly 1000 s however long a look takes.
	const clockNow = Date.UTC(2026, 10, 24, 13, 5, 0);
	await page.clock.setFixedTime(clockNow);
	await page.goto('./zh-CN/errors');
	await expect(page.getByRole('heading', { name: '服务的错误码', level: 1 })).toBeVisible();
	const now = clockNow / 1000 - 1000;
	const body = page.getByRole('textbox', { name: '响应体' });
	// The field is disabled until the page has hydrated, and fill waits for it to be editable.
	await body.fill(
		JSON.stringify({
			data: { code: 0, error: 'access_denied', error_description: 'Unknown kid.' },
			now,
			success: false
		})
	);
	await expect(explainer(page, 'access_denied')).toBeVisible();
	const region = explainer(page, 'access_denied');
	await expect(region).toContainText('退出本地的用户登录信息，引导用户重新登录。');
	await expect(region).toContainText('在签算页发送时收到它');
	await expect(region.getByRole('link', { name: '前往签算页发送' })).toHaveAttribute(
		'href',
		/\/zh-CN\/#send-heading$/
	);
	await expect(page.getByText(/响应体中的 now（\d{4}年.*）比本机时钟慢 16分钟40秒/)).toBeVisible();

	await body.fill('upstream exploded');
	await expect(page.getByText('响应体不是 JSON：“upstream exploded”。')).toBeVisible();

	await expectNoEnglishProse(page);
	const table = page.getByRole('region', { name: '错误码列表' });
	await expect(table.getByRole('row', { name: /server_error/ })).toContainText(
		'稍等后重试，最多 3 次；仍失败则中断并告知用户。'
	);
});
