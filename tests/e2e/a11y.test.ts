import { expect, test, type Page } from '@playwright/test';
import { violations } from './axe';

const states: { name: string; path: string; act?: (page: Page) => Promise<void> }[] = [
	{ name: 'playground, first visit', path: './' },
	{
		name: 'playground, sent, with sandbox settings and code open',
		path: './',
		act: async (page) => {
			await page.getByRole('button', { name: 'Send', exact: true }).click();
			await expect(page.getByRole('status', { name: 'HTTP status', exact: true })).toHaveText(
				'200 OK'
			);
			await page.getByText('Sandbox settings and token lifecycle').click();
			await page.getByText('Headers the browser can read').click();
			await page.getByText('Hex view').click();
			await page.getByText('Code: the same signing on your server').click();
			await page.getByRole('tab', { name: 'Go' }).click();
		}
	},
	{
		name: 'playground, an error explained, fields flagged',
		path: './',
		act: async (page) => {
			await page.getByLabel('client_id').fill('wrong');
			await page.getByRole('button', { name: 'Send', exact: true }).click();
			await expect(page.getByRole('region', { name: 'invalid_client', exact: true })).toBeVisible();
			await page.getByLabel('mac_algorithm').fill('rsa');
			await page.getByText('Paste SDK login result', { exact: true }).first().click();
			await page.getByRole('textbox', { name: 'Paste SDK login result' }).fill('{');
			await page.getByLabel('Proxy', { exact: true }).check();
			await page.getByLabel('Relay address').fill('nonsense');
		}
	},
	{ name: 'verify, empty', path: './verify' },
	{
		name: 'verify, a mismatch diagnosed and diffed',
		path: './verify',
		act: async (page) => {
			await page
				.getByRole('textbox', { name: 'Signed request' })
				.fill(
					`curl 'https://open.tapapis.cn/account/basic-info/v1?client_id=x' -H 'Authorization: MAC id="k",ts="1700000000",nonce="n",mac="AAAAAAAAAAAAAAAAAAAAAAAAAAA="'`
				);
			await page.getByRole('textbox', { name: 'mac_key' }).fill('key');
			await page
				.getByRole('textbox', { name: "Base string from the customer's logs" })
				.fill('1700000000\\nn\\nGET\\n');
			await expect(page.getByRole('list', { name: 'Diagnosis' })).toBeVisible();
		}
	},
	{
		name: "verify, an example over the agent's own case",
		path: './verify',
		act: async (page) => {
			await page.getByRole('textbox', { name: 'mac_key' }).fill('their key');
			await page.getByRole('button', { name: /^Two mistakes at once/ }).click();
			await expect(page.getByRole('button', { name: 'Put back what you had' })).toBeVisible();
			await expect(page.getByRole('list', { name: 'Diagnosis' })).toBeVisible();
		}
	},
	{
		name: 'errors, a body explained',
		path: './errors',
		act: async (page) => {
			await page
				.getByLabel('Response body')
				.fill('{"error":"invalid_time","error_description":"ts"}');
			await expect(page.getByRole('region', { name: 'invalid_time', exact: true })).toBeVisible();
		}
	},
	{
		name: 'sandbox server, no server at the address',
		path: './sandbox',
		act: async (page) => {
			// Port 9 (discard) is closed on loopback: the refusal and its advice show.
			await page.getByLabel('Sandbox server address').fill('http://127.0.0.1:9');
			await page.getByRole('button', { name: 'Connect', exact: true }).click();
			await expect(page.getByRole('status', { name: 'Connection' })).toContainText(
				'No sandbox server answered'
			);
		}
	},
	{ name: 'not found', path: './nowhere' }
];

for (const colorScheme of ['light', 'dark'] as const) {
	for (const width of [1280, 360]) {
		for (const state of states) {
			test(`no axe violations: ${state.name} (${colorScheme}, ${width} px)`, async ({ page }) => {
				await page.setViewportSize({ width, height: 900 });
				await page.emulateMedia({ colorScheme });
				await page.goto(state.path);
				await page.waitForLoadState('networkidle');
				if (state.path === './')
					await expect(
						page.getByRole('status', { name: 'Authorization header', exact: true })
					).toBeVisible();
				await state.act?.(page);
				expect(await violations(page)).toEqual([]);
			});
		}
	}
}

/** Presses Tab until the focused element matches, as a keyboard user would; fails after `limit` presses. */
async function tabTo(page: Page, matches: (element: Element) => boolean, limit = 120) {
	const source = matches.toString();
	for (let i = 0; i < limit; i++) {
		await page.keyboard.press('Tab');
		if (
			await page.evaluate((fn) => new Function(`return (${fn})(document.activeElement)`)(), source)
		)
			return;
	}
	throw new Error(`Tab never reached the element after ${limit} presses`);
}

test('keyboard only: sign, send, read the explanation and act on it, with focus always visible', async ({
	page
}) => {
	await page.goto('./');
	await expect(
		page.getByRole('status', { name: 'Authorization header', exact: true })
	).toBeVisible();
	await tabTo(page, (element) => element.id === 'client_id');
	expect(
		await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)
	).not.toBe('none');
	await page.keyboard.press('Control+A');
	await page.keyboard.type('typed-by-keyboard');
	await tabTo(page, (element) => element.textContent?.trim() === 'Send');
	expect(
		await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)
	).not.toBe('none');
	await page.keyboard.press('Enter');
	await expect(page.getByRole('region', { name: 'invalid_client', exact: true })).toBeVisible();
	await tabTo(page, (element) => element.textContent?.trim() === 'Go to client_id');
	await page.keyboard.press('Enter');
	await expect(page.getByLabel('client_id')).toBeFocused();
	await page.keyboard.press('Control+A');
	await page.keyboard.type('demo-client-0001');
	await tabTo(page, (element) => element.textContent?.trim() === 'Send');
	await page.keyboard.press('Enter');
	await expect(page.getByRole('status', { name: 'HTTP status', exact: true })).toHaveText('200 OK');
});

test('reduced motion: nothing animates, not even what a component gives a transition or an animation', async ({
	page
}) => {
	// Nothing on the page moves today, so every element is given motion of its own: the preference
	// must stop it, whatever a component adds later.
	const moving = () =>
		page.evaluate(() => {
			const elements = [...document.querySelectorAll<HTMLElement>('body *')];
			for (const element of elements) {
				element.style.transition = 'opacity 1s';
				element.style.animation = 'spin 1s infinite';
			}
			return elements.filter((element) => {
				const style = getComputedStyle(element);
				return style.animationName !== 'none' || !['0s', ''].includes(style.transitionDuration);
			}).length;
		});
	await page.goto('./');
	await expect(
		page.getByRole('status', { name: 'Authorization header', exact: true })
	).toBeVisible();
	expect(await moving()).toBeGreaterThan(0);
	await page.emulateMedia({ reducedMotion: 'reduce' });
	expect(await moving()).toBe(0);
});
