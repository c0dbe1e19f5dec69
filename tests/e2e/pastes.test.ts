// Pastes as people paste them, true claims when nothing explains a mac, and Windows users: each test
// does what a first-time user did, in Chromium, against the production build.
import { createHmac } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';

const KEY = 'support-desk-key-7Hq';
const KID = 'kid-of-a-customer-1234';
const URL = 'https://open.tapapis.cn/account/profile/v1?client_id=cust-app';
const NONCE = 'bm9uY2Utbm9uY2UtMTY=';

function base(ts: string, port = '443') {
	return `${ts}\n${NONCE}\nGET\n/account/profile/v1?client_id=cust-app\nopen.tapapis.cn\n${port}\n\n`;
}

function header(ts: string, key = KEY, port = '443') {
	const mac = createHmac('sha1', key).update(base(ts, port)).digest('base64');
	return `MAC id="${KID}",ts="${ts}",nonce="${NONCE}",mac="${mac}"`;
}

const LOGIN_RESULT = {
	kid: 'sdk-kid-77',
	access_token: 'sdk-kid-77',
	token_type: 'mac',
	mac_key: 'sdk-mac-key-Zq81',
	mac_algorithm: 'hmac-sha-1',
	scopeSet: ['basic_info']
};

const verdict = (page: Page) =>
	page.getByRole('status').filter({ hasText: /Match|Mismatch|Waiting/ });
const clock = (page: Page) => page.locator('p', { hasText: /^Clock:/ });

test.beforeEach(async ({ page }) => {
	page.on('pageerror', (error) => {
		throw error;
	});
});

test.describe('the sign page', () => {
	test.beforeEach(async ({ page }) => {
		await page.goto('./');
		// The header is rendered only once the page has hydrated: typing before that would be lost.
		await expect(
			page.getByRole('status', { name: 'Authorization header', exact: true })
		).toBeVisible();
	});

	test('an SDK login result copied from logcat with its prefix fills the credential and says what was ignored', async ({
		page
	}) => {
		const prefix = '11-21 10:00:01.123 12345-12345/com.example.game D/TapLogin: onLoginSuccess:';
		const result = { ...LOGIN_RESULT, scopeSet: ['public_profile'] };
		await page.getByText('Paste SDK login result', { exact: true }).first().click();
		const box = page.getByRole('textbox', { name: 'Paste SDK login result' });
		await box.fill(`${prefix} ${JSON.stringify(result)}`);

		await expect(page.getByLabel('kid', { exact: true })).toHaveValue('sdk-kid-77');
		await expect(page.getByLabel('mac_key', { exact: true })).toHaveValue(LOGIN_RESULT.mac_key);
		await expect(page.getByLabel('public_profile')).toBeChecked();
		await expect(box).toHaveAccessibleDescription(
			`Filled kid, mac_key, mac_algorithm, token_type and scopes. Read the JSON object in the paste and ignored the text before it, “${prefix}”. The box was emptied so that the mac_key does not stay on screen.`
		);
	});

	test('once the paste has filled the credential, the paste box no longer shows the mac_key', async ({
		page
	}) => {
		await page.getByText('Paste SDK login result', { exact: true }).first().click();
		const box = page.getByRole('textbox', { name: 'Paste SDK login result' });
		await box.fill(JSON.stringify(LOGIN_RESULT, null, 2));

		await expect(page.getByLabel('mac_key', { exact: true })).toHaveValue(LOGIN_RESULT.mac_key);
		await expect(box).toHaveValue('');
		await expect(box).toHaveAccessibleDescription(
			'Filled kid, mac_key, mac_algorithm, token_type and scopes. The box was emptied so that the mac_key does not stay on screen.'
		);
		// The signature is made with the key that was pasted.
		await expect(
			page.getByRole('status', { name: 'Authorization header', exact: true })
		).toContainText('id="sdk-kid-77"');
	});

	for (const [shell, copy] of [
		['cmd', 'Copy cmd command'],
		['PowerShell', 'Copy PowerShell command']
	] as const) {
		test(`the signed request for ${shell}, copied from the sign page, matches on the verify page`, async ({
			page,
			context
		}) => {
			await context.grantPermissions(['clipboard-read', 'clipboard-write']);
			// Characters cmd and PowerShell treat specially, in the kid and the query.
			await page.getByLabel('kid', { exact: true }).fill("win%PATH%&^!'kid");
			await page.getByLabel('mac_key', { exact: true }).fill(KEY);
			await page.getByLabel('client_id').fill("app&x=%41'1");
			await page.getByLabel('ts', { exact: true }).fill(String(Math.floor(Date.now() / 1000)));
			const bash = await page
				.getByRole('status', { name: 'curl command', exact: true })
				.textContent();

			const shells = page.getByRole('group', { name: 'The same request for' });
			await expect(shells.getByRole('radio', { name: 'bash' })).toBeChecked();
			await shells.getByRole('radio', { name: shell, exact: true }).check();
			await page.getByRole('button', { name: copy }).click();
			const command = await page.evaluate(() => navigator.clipboard.readText());
			expect(command).toMatch(shell === 'cmd' ? /^curl .*\^"/ : /^Invoke-RestMethod /);
			// The bash command stays as it was, under its own name.
			await expect(page.getByRole('status', { name: 'curl command', exact: true })).toHaveText(
				bash ?? ''
			);
			await expect(page.getByRole('button', { name: 'Copy curl command' })).toBeVisible();

			await page.getByRole('link', { name: 'Verify a signature' }).click();
			await page.getByRole('textbox', { name: 'Signed request' }).fill(command);
			await page.getByRole('textbox', { name: 'mac_key' }).fill(KEY);
			await expect(
				page.getByText(`Read as a ${shell === 'cmd' ? 'curl' : 'PowerShell'} command`)
			).toBeVisible();
			await expect(verdict(page)).toContainText('Match');
			await expect(verdict(page)).not.toContainText('Mismatch');
		});
	}
});

test.describe('the verify page', () => {
	test.beforeEach(async ({ page }) => {
		await page.goto('./verify');
		await expect(page.getByText('Waiting for the signed request')).toBeVisible();
	});

	test('a base string pasted with its log line is taken out of it and differs on line 6, the port', async ({
		page
	}) => {
		const ts = String(Math.floor(Date.now() / 1000));
		await page
			.getByRole('textbox', { name: 'Signed request' })
			.fill(`curl '${URL}' -H 'Authorization: ${header(ts, KEY, '80')}'`);
		await page.getByRole('textbox', { name: 'mac_key' }).fill(KEY);
		await expect(verdict(page)).toContainText('Mismatch');

		const logTime = new Date(Number(ts) * 1000).toISOString().slice(0, 23).replace('T', ' ');
		const prefix = `${logTime.replace('.', ',')} DEBUG signer: base_string=`;
		const logged = `${prefix}'${base(ts, '80').replaceAll('\n', '\\n')}'`;
		await page.getByRole('textbox', { name: "Base string from the customer's logs" }).fill(logged);

		await expect(page.getByText('First difference on line 6.')).toBeVisible();
		await expect(
			page.getByText(`Took off: the log prefix "${prefix}" and the quotes.`)
		).toBeVisible();
		const table = page.getByRole('table', { name: 'Base string, line by line' });
		await expect(table.locator('mark')).toHaveText(['443', '80']);
		await expect(page.getByLabel('Read \\n, \\r and \\t as line breaks')).toBeChecked();
		// The log line's time is when it was signed.
		await expect(clock(page)).toContainText("the same second as the log line's time");

		// Unticked, it is compared as pasted (less the log line), and says so.
		await page.getByLabel('Read \\n, \\r and \\t as line breaks').uncheck();
		await expect(page.getByText('First difference on line 1.')).toBeVisible();
	});

	test("an old HAR is judged by when its request was sent, not by today's clock", async ({
		page
	}) => {
		const ts = '1618221750'; // 2021-04-12 10:02:30 UTC
		const har = JSON.stringify({
			log: {
				version: '1.2',
				entries: [
					{
						startedDateTime: '2021-04-12T10:02:31.250Z',
						request: {
							method: 'GET',
							url: URL,
							headers: [{ name: 'authorization', value: header(ts) }]
						}
					}
				]
			}
		});
		await page.getByRole('textbox', { name: 'Signed request' }).fill(har);
		await page.getByRole('textbox', { name: 'mac_key' }).fill(KEY);
		await expect(verdict(page)).toContainText('Match');
		await expect(clock(page)).toContainText(
			"ts is 1 second before the logged time 2021-04-12 10:02:31 UTC (the HAR entry's startedDateTime): within ±5 minutes"
		);
		await expect(clock(page)).not.toContainText('expect invalid_time');
	});

	test("an old log line is judged by the line's time, and a raw request by its Date header", async ({
		page
	}) => {
		const ts = '1618221750';
		const box = page.getByRole('textbox', { name: 'Signed request' });
		await box.fill(`2021-04-12 10:02:31,118 INFO http: Authorization: ${header(ts)}`);
		await page.getByRole('textbox', { name: 'mac_key' }).fill(KEY);
		await page.getByRole('textbox', { name: 'Request URL' }).fill(URL);
		await expect(verdict(page)).toContainText('Match');
		await expect(page.getByRole('list', { name: 'Understood from the paste' })).toContainText(
			'Took off the log prefix "2021-04-12 10:02:31,118 INFO http:"'
		);
		await expect(clock(page)).toContainText("ts is 1 second before the log line's time");
		await expect(clock(page)).not.toContainText('expect invalid_time');

		await box.fill(
			`GET /account/profile/v1?client_id=cust-app HTTP/1.1\r\nHost: open.tapapis.cn\r\nDate: Mon, 12 Apr 2021 10:12:30 GMT\r\nAuthorization: ${header(ts)}\r\n\r\n`
		);
		await expect(clock(page)).toContainText(
			'ts is 10 minutes before the logged time 2021-04-12 10:12:30 UTC (the Date header): outside ±5 minutes'
		);
		await expect(clock(page)).toContainText("The signer's clock was behind.");
	});

	test('when nothing in the catalogue reproduces the mac, the page blames no one thing and says what to compare next', async ({
		page
	}) => {
		const ts = String(Math.floor(Date.now() / 1000));
		await page
			.getByRole('textbox', { name: 'Signed request' })
			.fill(`curl '${URL}' -H 'Authorization: ${header(ts, 'the-right-key-elsewhere')}'`);
		await page.getByRole('textbox', { name: 'mac_key' }).fill(KEY);
		await expect(verdict(page)).toContainText('Mismatch');
		await expect(verdict(page)).toContainText('nothing in the catalogue reproduces it');
		await expect(verdict(page)).toContainText('is one possibility among others');
		await expect(verdict(page)).not.toContainText('likely cause');
		const diagnosis = page.getByRole('list', { name: 'Diagnosis' });
		await expect(diagnosis).toContainText('No catalogued mistake reproduces');
		await expect(diagnosis).toContainText('Next: ask for the base string their code logged');

		// Their logged base string is the expected one: what is left is the key or the HMAC step.
		await page
			.getByRole('textbox', { name: "Base string from the customer's logs" })
			.fill(base(ts));
		await expect(diagnosis).toContainText('Their logged base string is the expected one');
	});
});
