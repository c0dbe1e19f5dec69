import { expect, test, type Page } from '@playwright/test';
import { failOnPageErrors } from './page-errors';

// What a first-time user does on the signing page and the errors page, step by step.

const send = (page: Page) => page.getByRole('button', { name: 'Send', exact: true });
const response = (page: Page) => page.getByRole('region', { name: 'Response' });
const kid = (page: Page) => page.getByLabel('kid', { exact: true });
const macKey = (page: Page) => page.getByLabel('mac_key', { exact: true });

const REAL_LOGIN = {
	kid: 'real-kid-7f3a',
	access_token: 'real-kid-7f3a',
	token_type: 'mac',
	mac_key: 'real-mac-key-Hs72kq',
	mac_algorithm: 'hmac-sha-1',
	scopeSet: ['basic_info']
};

test.beforeEach(async ({ page }) => {
	failOnPageErrors(page);
});

async function open(page: Page) {
	await page.goto('./');
	// The header is rendered only once the page has hydrated: typing before that would be lost.
	await expect(
		page.getByRole('status', { name: 'Authorization header', exact: true })
	).toBeVisible();
}

test.describe('a real credential sent to the sandbox', () => {
	test.beforeEach(async ({ page }) => {
		await open(page);
		await page.getByText('Paste SDK login result', { exact: true }).first().click();
		await page
			.getByRole('textbox', { name: 'Paste SDK login result' })
			.fill(JSON.stringify(REAL_LOGIN));
		await page.getByLabel('client_id').fill('real-client-123');
		// A ts fixed days ago, as one left in the field and sent later.
		const daysAgo = Math.floor(Date.now() / 1000) - 3 * 86_400;
		await page.getByLabel('ts', { exact: true }).fill(String(daysAgo));
	});

	test('the intro no longer says a demo account is filled in, and does not offer to send this one', async ({
		page
	}) => {
		await expect(page.getByText(/demo account is filled in/i)).toHaveCount(0);
		await expect(page.getByRole('button', { name: 'send it to the sandbox' })).toHaveCount(0);
		await expect(page.getByText("Load one of the sandbox's demo accounts")).toBeVisible();
	});

	test('the answer says first that the sandbox never issued this kid, and claims no clock difference', async ({
		page
	}) => {
		await send(page).click();
		await expect(page.getByRole('status', { name: 'HTTP status', exact: true })).toHaveText(
			'400 Bad Request'
		);
		const notice = response(page).getByText('The sandbox never issued kid "real-kid-7f3a"');
		await expect(notice).toBeVisible();
		await expect(response(page)).toContainText('knows only its demo accounts');
		// It comes before the error's explanation.
		const order = await response(page).evaluate((region) => {
			const text = region.textContent ?? '';
			return [text.indexOf('never issued'), text.indexOf('invalid_time')];
		});
		expect(order[0]).toBeGreaterThanOrEqual(0);
		expect(order[0]).toBeLessThan(order[1] ?? -1);
		// The sandbox runs in this page on this clock: no clock difference was measured.
		await expect(response(page)).not.toContainText("The server's clock is");
		// What is wrong is the ts itself, and the page says how old it is.
		await expect(response(page)).toContainText(/3 days( \d+ \w+)? behind the server's time/);

		await page
			.getByRole('button', { name: "Re-sign with the server's time and send again" })
			.click();
		await expect(page.getByRole('status', { name: 'HTTP status', exact: true })).toHaveText(
			'401 Unauthorized'
		);
		await expect(
			response(page).getByRole('region', { name: 'access_denied', exact: true })
		).toBeVisible();
		await expect(notice).toBeVisible();
		// The live ts follows this machine's clock: nothing was learnt about another clock.
		await expect(page.getByText("The live ts follows the server's clock")).toHaveCount(0);
	});

	test('"Log in again" says it put a demo credential in place of the pasted one, and puts it back', async ({
		page
	}) => {
		await page.getByRole('button', { name: 'Use live ts' }).click();
		await send(page).click();
		await expect(page.getByRole('status', { name: 'HTTP status', exact: true })).toHaveText(
			'401 Unauthorized'
		);
		await page.getByRole('button', { name: 'Log in again (sandbox)' }).click();

		// Said where the next step is, beside Send, with the pasted credential's kid.
		const replaced = page.getByRole('status').filter({ hasText: 'in place of yours' });
		await expect(replaced).toContainText('kid real-kid-7f3a');
		await expect(replaced).toBeFocused();
		await expect(replaced).toBeInViewport();
		await expect(kid(page)).toHaveValue(/^demo-kid-profile-4f1c-\d+$/);
		await send(page).click();
		await expect(page.getByRole('status', { name: 'HTTP status', exact: true })).toHaveText(
			'200 OK'
		);

		await page.getByRole('button', { name: 'Put back my credential' }).click();
		await expect(kid(page)).toHaveValue('real-kid-7f3a');
		await expect(macKey(page)).toHaveValue('real-mac-key-Hs72kq');
		await expect(page.getByLabel('client_id')).toHaveValue('real-client-123');
		await expect(replaced).toHaveCount(0);
	});

	test('the answer hands the request over to /verify in memory, key included', async ({ page }) => {
		await page.getByRole('button', { name: 'Use live ts' }).click();
		await send(page).click();
		await expect(page.getByRole('status', { name: 'HTTP status', exact: true })).toHaveText(
			'401 Unauthorized'
		);
		await response(page)
			.getByRole('link', { name: 'Check this request on the verify page' })
			.click();
		await expect(page).toHaveURL(/\/verify$/);
		expect(page.url()).not.toContain('real-mac-key');
		await expect(page.getByRole('textbox', { name: 'mac_key' })).toHaveValue('real-mac-key-Hs72kq');
		await expect(page.getByRole('textbox', { name: 'Request URL' })).toHaveValue(
			'https://open.tapapis.cn/account/basic-info/v1?client_id=real-client-123'
		);
		await expect(page.getByRole('status').filter({ hasText: /Match/ })).not.toContainText(
			'Mismatch'
		);
	});

	test('the answer offers a relay to the real service', async ({ page }) => {
		await send(page).click();
		await response(page).getByRole('button', { name: 'Send it through a relay instead' }).click();
		await expect(page.getByRole('radio', { name: 'Proxy' })).toBeChecked();
		await expect(page.getByLabel('Relay address')).toBeFocused();
	});
});

test.describe('keyboard users keep their place', () => {
	test('tabbing through the ts field leaves it live, and a send minutes later still works', async ({
		page
	}) => {
		await page.clock.install();
		await open(page);
		await page.getByLabel('Request URL').focus();
		await page.keyboard.press('Tab');
		await expect(page.getByLabel('ts', { exact: true })).toBeFocused();
		await page.keyboard.press('Tab');
		await expect(page.getByLabel('ts', { exact: true })).not.toBeFocused();
		await expect(page.getByText('Live', { exact: true })).toBeVisible();
		await expect(page.getByText('Fixed as typed.')).toHaveCount(0);

		await page.clock.fastForward('06:00');
		await send(page).click();
		await expect(page.getByRole('status', { name: 'HTTP status', exact: true })).toHaveText(
			'200 OK'
		);
	});

	test('each radio group is one tab stop, and the arrow keys move within it', async ({ page }) => {
		await open(page);
		const groups: [string, string, string][] = [
			['Region', 'Domestic', 'Overseas'],
			['Operation', 'By the scopes', 'Basic information (§4.1)'],
			['New nonces are', '16 bytes, Base64', '16 letters'],
			['Target', 'Sandbox', 'Proxy']
		];
		for (const [legend, first, second] of groups) {
			const group = page.getByRole('group', { name: legend, exact: true });
			const firstRadio = group.getByRole('radio', { name: first });
			const secondRadio = group.getByRole('radio', { name: second });
			await firstRadio.check();
			await firstRadio.focus();
			await page.keyboard.press('ArrowDown');
			await expect(secondRadio, legend).toBeChecked();
			await expect(secondRadio, legend).toBeFocused();
			// The group is one tab stop, its checked button: Tab and Shift+Tab leave it at once.
			const focusInGroup = () =>
				group.evaluate(
					(element) =>
						element.contains(document.activeElement) &&
						(document.activeElement as HTMLInputElement).type === 'radio'
				);
			await page.keyboard.press('Shift+Tab');
			expect(await focusInGroup(), `${legend}: Shift+Tab`).toBe(false);
			await page.keyboard.press('Tab');
			await expect(secondRadio, legend).toBeFocused();
			await page.keyboard.press('Tab');
			expect(await focusInGroup(), `${legend}: Tab`).toBe(false);
		}
	});

	test("after Send, focus moves to the answer's heading, which names the status", async ({
		page
	}) => {
		await page.setViewportSize({ width: 360, height: 740 });
		await open(page);
		await send(page).click();
		const heading = page.getByRole('heading', { name: /200 OK · \d+ ms · via sandbox/ });
		await expect(heading).toBeFocused();
		await expect(heading).toBeInViewport();
	});

	test('the intro\'s "send it to the sandbox" sends, and shows the answer', async ({ page }) => {
		await page.setViewportSize({ width: 360, height: 740 });
		await open(page);
		await page.getByRole('radio', { name: 'Direct' }).check();
		await page.getByRole('button', { name: 'send it to the sandbox' }).click();
		const heading = page.getByRole('heading', { name: /200 OK · \d+ ms · via sandbox/ });
		await expect(heading).toBeFocused();
		await expect(heading).toBeInViewport();
		await expect(page.getByRole('radio', { name: 'Sandbox' })).toBeChecked();
	});
});

test.describe('only true claims', () => {
	test('/errors: no one-click button it does not have; the pasted now is measured against this clock', async ({
		page
	}) => {
		await page.goto('./errors');
		const now = Math.floor(Date.now() / 1000) - (3 * 86_400 + 2 * 3_600 + 30);
		await page.getByLabel('Response body').fill(
			JSON.stringify({
				data: { code: 0, error: 'invalid_time', error_description: 'ts out of range' },
				now,
				success: false
			})
		);
		const explainer = page.getByRole('region', { name: 'invalid_time', exact: true });
		await expect(explainer).toBeVisible();
		await expect(page.getByText(/3 days 2 hours behind this machine's clock/)).toBeVisible();
		await expect(explainer.getByText('What this page does')).toHaveCount(0);
		await explainer.getByRole('link', { name: 'Go to Send on the signing page' }).click();
		await expect(page).toHaveURL(/\/mac-token-playground\/#send-heading$/);
		await expect(page.getByRole('heading', { name: 'Send the request' })).toBeInViewport();
	});

	test("a previous answer's invalid_time offers no re-sign: its clock was another target's", async ({
		page
	}) => {
		await open(page);
		const daysAgo = Math.floor(Date.now() / 1000) - 3 * 86_400;
		await page.getByLabel('ts', { exact: true }).fill(String(daysAgo));
		await send(page).click();
		const resign = page.getByRole('button', {
			name: "Re-sign with the server's time and send again"
		});
		await expect(resign).toBeVisible();

		await page.getByRole('radio', { name: 'Proxy' }).check();
		await expect(page.getByRole('heading', { name: /^Previous response/ })).toBeVisible();
		await expect(resign).toHaveCount(0);
		await expect(response(page)).toContainText('Send to the current target to measure its clock.');
	});

	test("after switching the target, the last target's answer is marked as the previous one", async ({
		page
	}) => {
		await open(page);
		await page.route('https://open.tapapis.cn/**', (route) => route.abort('accessdenied'));
		await page.getByRole('radio', { name: 'Direct' }).check();
		await send(page).click();
		await expect(response(page)).toContainText('The request did not get through.');
		await expect(page.getByRole('heading', { name: /^Previous/ })).toHaveCount(0);

		await page.getByRole('radio', { name: 'Proxy' }).check();
		await expect(
			page.getByRole('heading', { name: /^Previous response · no answer · \d+ ms · via direct$/ })
		).toBeVisible();
		await expect(response(page)).toContainText('The target is now Proxy');

		await page.getByRole('radio', { name: 'Direct' }).check();
		await expect(page.getByRole('heading', { name: /^Previous/ })).toHaveCount(0);
	});
});
