// What a visitor does right after a page appears takes effect: each action is done as soon as its
// element is visible (the page is opened at its first byte, not at its load event), and each page is
// opened TRIES times. A press waits only for what Playwright waits for before any click (visible,
// enabled, receiving events): the controls are disabled until the page has hydrated
// (routes/+layout.svelte), a field keeps what was typed into it as it hydrates (Svelte), and a
// disclosure keeps the state it was given (ui/disclosure.ts).
import { expect, test, type Page } from '@playwright/test';
import { failOnPageErrors } from './page-errors';

const TRIES = 20;

/** Opens a page and returns as soon as its response has begun: nothing waits for it to load. */
async function open(page: Page, path: string) {
	failOnPageErrors(page);
	await page.goto(path, { waitUntil: 'commit' });
}

interface PageCase {
	path: string;
	disclosure?: (page: Page) => Promise<void>;
	field: (page: Page) => Promise<void>;
	button: (page: Page) => Promise<void>;
}

const CASES: PageCase[] = [
	{
		path: './',
		disclosure: async (page) => {
			await page.getByText('Sandbox settings and token lifecycle').click();
			await expect(page.getByRole('button', { name: 'User revoked authorization' })).toBeVisible();
		},
		field: async (page) => {
			await page.getByRole('textbox', { name: 'kid', exact: true }).fill('early-kid');
			await expect(page.getByRole('status', { name: 'Authorization header' })).toContainText(
				'id="early-kid"'
			);
		},
		button: async (page) => {
			await page.getByRole('button', { name: 'Demo account with basic_info only' }).click();
			await expect(page.getByRole('textbox', { name: 'kid', exact: true })).toHaveValue(
				'demo-kid-basic-8a2e'
			);
		}
	},
	{
		path: './zh-CN/',
		disclosure: async (page) => {
			await page.getByText('代码：在你的服务端做同样的签算').click();
			await expect(page.getByRole('tab', { name: 'Go' })).toBeVisible();
		},
		field: async (page) => {
			await page.getByRole('textbox', { name: 'kid', exact: true }).fill('early-kid');
			await expect(page.getByRole('status', { name: 'Authorization 请求头' })).toContainText(
				'id="early-kid"'
			);
		},
		button: async (page) => {
			await page.getByRole('button', { name: '只有 basic_info 的演示账号' }).click();
			await expect(page.getByRole('textbox', { name: 'kid', exact: true })).toHaveValue(
				'demo-kid-basic-8a2e'
			);
		}
	},
	{
		path: './verify',
		field: async (page) => {
			const header =
				'Authorization: MAC id="demo-kid-profile-4f1c",ts="1763700000",nonce="bm9uY2U=",mac="AAAA"';
			await page.getByRole('textbox', { name: 'Signed request' }).fill(header);
			await expect(page.getByRole('list', { name: 'Understood from the paste' })).toContainText(
				'kid, ts, nonce and mac from the Authorization header'
			);
		},
		button: async (page) => {
			await page.getByRole('button', { name: 'Signed correctly (a header and its URL)' }).click();
			await expect(page.getByRole('textbox', { name: 'Signed request' })).toHaveValue(
				/^Authorization: MAC id="demo-kid-profile-4f1c"/
			);
		}
	},
	{
		path: './triage',
		field: async (page) => {
			await page.getByRole('textbox', { name: 'Keys', exact: true }).fill('k1 secret');
			await expect(page.getByRole('textbox', { name: 'Keys', exact: true })).toHaveValue(
				'k1 secret'
			);
		},
		button: async (page) => {
			await page.getByRole('button', { name: 'Show keys' }).click();
			await expect(page.getByRole('button', { name: 'Hide keys' })).toBeVisible();
		}
	},
	{
		path: './errors',
		field: async (page) => {
			await page
				.getByLabel('Response body')
				.fill('{"error":"invalid_time","error_description":"ts"}');
			await expect(page.getByRole('region', { name: 'invalid_time', exact: true })).toBeVisible();
		},
		button: async (page) => {
			await page.getByRole('button', { name: 'Clear everything' }).click();
			await page.waitForURL(/\/errors$/);
			await expect(page.getByLabel('Response body')).toHaveValue('');
		}
	},
	{
		path: './sandbox',
		field: async (page) => {
			await page.getByLabel('Sandbox server address').fill('ftp://127.0.0.1');
			await expect(page.getByLabel('Sandbox server address')).toHaveValue('ftp://127.0.0.1');
		},
		button: async (page) => {
			await page.getByLabel('Sandbox server address').fill('ftp://127.0.0.1');
			await page.getByRole('button', { name: 'Connect', exact: true }).click();
			await expect(page.getByLabel('Sandbox server address')).toHaveAttribute(
				'aria-invalid',
				'true'
			);
		}
	}
];

for (const { path, disclosure, field, button } of CASES) {
	test.describe(`right after ${path} appears`, () => {
		for (let run = 1; run <= TRIES; run++) {
			if (disclosure)
				test(`a disclosure opened stays open and shows what it holds (${run})`, async ({
					page
				}) => {
					await open(page, path);
					await disclosure(page);
				});
			test(`a field typed in keeps its text and the page follows it (${run})`, async ({ page }) => {
				await open(page, path);
				await field(page);
			});
			test(`a button pressed does what it says (${run})`, async ({ page }) => {
				await open(page, path);
				await button(page);
			});
		}
	});
}
