import { expect, test, type Page } from '@playwright/test';
import { failOnPageErrors } from './page-errors';
import { RELAY_PORT } from '../../playwright.config';

const send = (page: Page) => page.getByRole('button', { name: 'Send', exact: true });
const response = (page: Page) => page.getByRole('region', { name: 'Response' });
const httpStatus = (page: Page) => page.getByRole('status', { name: 'HTTP status', exact: true });
const explainer = (page: Page, code: string) =>
	page.getByRole('region', { name: code, exact: true });

/** What a relay answers to the browser's CORS preflight for a request with an Authorization header. */
const PREFLIGHT_OK = {
	status: 204,
	headers: {
		'access-control-allow-origin': '*',
		'access-control-allow-headers': 'authorization',
		'access-control-allow-methods': 'GET'
	}
};

async function openSandboxSettings(page: Page) {
	await page.getByText('Sandbox settings and token lifecycle').click();
}

test.beforeEach(async ({ page }) => {
	failOnPageErrors(page);
	await page.goto('./');
	// The header is rendered only once the page has hydrated: typing before that would be lost.
	await expect(
		page.getByRole('status', { name: 'Authorization header', exact: true })
	).toBeVisible();
});

test("a new visitor's first Send gets a 200 with each field explained", async ({ page }) => {
	await send(page).click();
	await expect(httpStatus(page)).toHaveText('200 OK');
	const fields = page.getByRole('definition').filter({ hasText: 'oid-' });
	await expect(fields).toContainText('differs per application');
	await expect(response(page).getByText('"success": true')).toBeVisible();
	await expect(response(page)).toContainText('Ada Demo');
});

test('invalid_request: no Authorization header', async ({ page }) => {
	await page.getByLabel('Send without the Authorization header').check();
	await send(page).click();
	await expect(httpStatus(page)).toHaveText('400 Bad Request');
	await expect(explainer(page, 'invalid_request')).toContainText('Correct the request.');
	await expect(explainer(page, 'invalid_request')).toContainText(
		'The Authorization header is missing.'
	);
});

test('invalid_request: a typed nonce sent twice is refused the second time', async ({ page }) => {
	await page.getByLabel('nonce', { exact: true }).fill('typed-nonce-1');
	await send(page).click();
	await expect(httpStatus(page)).toHaveText('200 OK');
	await send(page).click();
	await expect(explainer(page, 'invalid_request')).toContainText('already used');
	await page.getByRole('button', { name: 'New nonce' }).click();
	await send(page).click();
	await expect(httpStatus(page)).toHaveText('200 OK');
});

test("invalid_time: the clock difference is shown, and one click re-signs with the server's time", async ({
	page
}) => {
	await openSandboxSettings(page);
	await page.getByLabel('Sandbox clock ahead of yours (seconds)').fill('1000');
	await send(page).click();
	await expect(explainer(page, 'invalid_time')).toContainText(
		'Obtain the server time and rebuild the token.'
	);
	await expect(explainer(page, 'invalid_time')).toContainText(
		/The server's clock is (99\d|100\d) s ahead of yours/
	);
	await page.getByRole('button', { name: "Re-sign with the server's time and send again" }).click();
	await expect(httpStatus(page)).toHaveText('200 OK');
	await expect(
		page.getByText(/The live ts follows the server's clock, \+(99\d|100\d)/)
	).toBeVisible();
});

test('invalid_time: a fixed old ts', async ({ page }) => {
	await page.getByLabel('ts', { exact: true }).fill('1000000000');
	await send(page).click();
	await expect(explainer(page, 'invalid_time')).toContainText('behind the server');
});

test("invalid_client: a client_id that is not the application's", async ({ page }) => {
	await page.getByLabel('client_id').fill('someone-elses-app');
	await send(page).click();
	await expect(httpStatus(page)).toHaveText('401 Unauthorized');
	await expect(explainer(page, 'invalid_client')).toContainText('Correct client_id.');
	await page.getByRole('button', { name: 'Go to client_id' }).click();
	await expect(page.getByLabel('client_id')).toBeFocused();
});

test('access_denied: a revoked token, sign out locally, log in again', async ({ page }) => {
	await openSandboxSettings(page);
	await page.getByRole('button', { name: 'User revoked authorization' }).click();
	await expect(page.getByText('State: Invalid')).toBeVisible();
	await send(page).click();
	await expect(explainer(page, 'access_denied')).toContainText(
		'Sign the user out locally and direct the user to log in again.'
	);
	await page.getByRole('button', { name: 'Log in again (sandbox)' }).click();
	await expect(page.getByLabel('kid', { exact: true })).toHaveValue(/demo-kid-profile-4f1c-\d/);
	await send(page).click();
	await expect(httpStatus(page)).toHaveText('200 OK');
});

test('access_denied: a revoked token, and signing out clears the credential', async ({ page }) => {
	// A wrong mac_key is no reason to sign out (send-answers.test.ts): a revoked token is.
	await openSandboxSettings(page);
	await page.getByRole('button', { name: 'User revoked authorization' }).click();
	await send(page).click();
	await expect(explainer(page, 'access_denied')).toContainText('The token is no longer valid');
	await page.getByRole('button', { name: 'Sign out locally' }).click();
	await expect(page.getByLabel('kid', { exact: true })).toHaveValue('');
	await expect(page.getByLabel('mac_key', { exact: true })).toHaveValue('');
	await expect(page.getByLabel('client_id')).toHaveValue('demo-client-0001');
});

test('forbidden: a basic_info-only token asking for the profile, and the page will not resubmit', async ({
	page
}) => {
	await page.getByRole('button', { name: 'Demo account with basic_info only' }).click();
	await page.getByRole('radio', { name: 'Detailed profile (§4.2)' }).check();
	await send(page).click();
	await expect(httpStatus(page)).toHaveText('403 Forbidden');
	await expect(explainer(page, 'forbidden')).toContainText('do not resubmit the request');
	await expect(send(page)).toBeDisabled();
	await expect(page.getByText(/spec §7 says not to send it again/)).toBeVisible();
	await page.getByRole('radio', { name: /^By the scopes/ }).check();
	await expect(send(page)).toBeEnabled();
});

test('not_found: an unknown path', async ({ page }) => {
	await page
		.getByLabel('Request URL')
		.fill('https://open.tapapis.cn/account/nothing/v1?client_id=demo-client-0001');
	await send(page).click();
	await expect(httpStatus(page)).toHaveText('404 Not Found');
	await expect(explainer(page, 'not_found')).toContainText(
		'Do not repeat the request with the same parameters.'
	);
	await expect(send(page)).toBeDisabled();
});

test('server_error: retried after a short wait, shown as a timeline, until it succeeds', async ({
	page
}) => {
	await openSandboxSettings(page);
	await page.getByLabel('Fail the next N requests').fill('2');
	await send(page).click();
	await expect(httpStatus(page)).toHaveText('200 OK');
	const timeline = page.getByRole('list', { name: 'Retries after server_error' });
	await expect(timeline.getByRole('listitem')).toHaveCount(3);
	await expect(timeline.getByRole('listitem').nth(0)).toContainText(
		'Attempt 1 of 3 at +0.0 s: 500 server_error'
	);
	await expect(timeline.getByRole('listitem').nth(2)).toContainText(/Attempt 3 of 3[\s\S]*200/);
});

test('server_error: stops after 3 attempts and says so', async ({ page }) => {
	await openSandboxSettings(page);
	await page.getByLabel('Fail the next N requests').fill('5');
	await send(page).click();
	await expect(page.getByText('Stopped after 3 attempts')).toBeVisible();
	await expect(explainer(page, 'server_error')).toContainText('upper bound of 3 attempts');
	await expect(
		page.getByRole('list', { name: 'Retries after server_error' }).getByRole('listitem')
	).toHaveCount(3);
});

test('proxy: browser → reference relay → sandbox service, signed for the upstream host', async ({
	page
}) => {
	await page.getByLabel('Proxy', { exact: true }).check();
	await page.getByLabel('Relay address').fill(`http://127.0.0.1:${RELAY_PORT}/`);
	await expect(
		page.getByText(
			`GET http://127.0.0.1:${RELAY_PORT}/https://open.tapapis.cn/account/profile/v1?client_id=demo-client-0001`
		)
	).toBeVisible();
	await send(page).click();
	await expect(httpStatus(page)).toHaveText('200 OK');
	await expect(response(page)).toContainText('via proxy');

	await page.getByLabel('Relay address').fill(`http://127.0.0.1:${RELAY_PORT}/?url={url}`);
	await page.getByLabel('client_id').fill('wrong-app');
	await send(page).click();
	await expect(explainer(page, 'invalid_client')).toBeVisible();
	await page.reload();
	await page.getByLabel('Proxy', { exact: true }).check();
	await expect(page.getByLabel('Relay address')).toHaveValue(
		`http://127.0.0.1:${RELAY_PORT}/?url={url}`
	);
});

test('proxy faults: relay down, HTML error page, non-JSON body; nothing typed is lost', async ({
	page
}) => {
	page.removeAllListeners('console');
	await page.getByLabel('client_id').fill('kept-client');
	await page.getByLabel('Proxy', { exact: true }).check();
	await page.getByLabel('Relay address').fill('http://127.0.0.1:9/');
	await send(page).click();
	await expect(response(page)).toContainText('Is the relay running (npm run proxy)');

	await page.route('http://127.0.0.1:9/**', (route) =>
		route.request().method() === 'OPTIONS'
			? route.fulfill(PREFLIGHT_OK)
			: route.fulfill({
					status: 502,
					contentType: 'text/html',
					headers: { 'access-control-allow-origin': '*' },
					body: '<html><head><title>502 Bad Gateway</title></head><body><h1>502</h1></body></html>'
				})
	);
	await send(page).click();
	await expect(response(page)).toContainText(
		'The body is an HTML page ("502 Bad Gateway"), not the service\'s JSON (HTTP 502)'
	);
	await page.unroute('http://127.0.0.1:9/**');
	await page.route('http://127.0.0.1:9/**', (route) =>
		route.request().method() === 'OPTIONS'
			? route.fulfill(PREFLIGHT_OK)
			: route.fulfill({
					status: 500,
					headers: { 'access-control-allow-origin': '*' },
					body: 'upstream exploded'
				})
	);
	await send(page).click();
	await expect(response(page)).toContainText(
		'The body is not JSON (HTTP 500): "upstream exploded"'
	);
	await expect(page.getByLabel('client_id')).toHaveValue('kept-client');
	await expect(page.getByLabel('Relay address')).toHaveValue('http://127.0.0.1:9/');
});

test('direct: the browser blocks the call, and the page says what to do', async ({ page }) => {
	page.removeAllListeners('console');
	// Stand in for the service's missing CORS preflight without sending anything off this machine.
	await page.route('https://open.tapapis.cn/**', (route) => route.abort('accessdenied'));
	await page.getByLabel('Direct', { exact: true }).check();
	await send(page).click();
	await expect(response(page)).toContainText('The service answers no CORS preflight');
	await expect(response(page)).toContainText('choose Proxy and run a relay (npm run proxy)');
});
