// The API clients' files as a user gets them (issue 26): made on the sign page from the form, by
// its buttons, in Chromium; then run by each client's own runner (newman, bru, httpyac) against the
// built sandbox-server.mjs on loopback, with the mac_key put where the file says.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { unzipSync } from 'fflate';
import { ACCOUNTS } from '../api-clients/accounts';
import { runBruno } from '../api-clients/bruno';
import { runHttpFile } from '../api-clients/http-file';
import { runPostman } from '../api-clients/postman';
import type { RunResult } from '../api-clients/fixture';
import { failOnPageErrors } from './page-errors';

const BUILT = new URL('../../build/sandbox-server.mjs', import.meta.url).pathname;

let server: { child: ChildProcess; url: string } | undefined;
let work = '';

test.beforeAll(async () => {
	work = await mkdtemp(join(tmpdir(), 'api-clients-'));
	const accounts = join(work, 'accounts.json');
	await writeFile(accounts, JSON.stringify(ACCOUNTS));
	const child = spawn(process.execPath, [BUILT, '--port', '0', '--accounts', accounts], {
		stdio: ['ignore', 'pipe', 'inherit']
	});
	server = await new Promise((resolve, reject) => {
		let output = '';
		child.stdout?.on('data', (chunk: Buffer) => {
			output += chunk.toString();
			const line = /^listening (http:\/\/127\.0\.0\.1:\d+)\n/.exec(output);
			if (line?.[1]) resolve({ child, url: line[1] });
		});
		child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
	});
});

test.afterAll(async () => {
	server?.child.kill();
	if (work) await rm(work, { recursive: true, force: true });
});

type Account = (typeof ACCOUNTS)[number];

/** The sign page with the form filled for `account`, the base URL the sandbox server's. */
async function fillForm(page: Page, account: Account): Promise<void> {
	await page.goto('./');
	await page.getByRole('textbox', { name: 'Domestic base URL' }).fill(server?.url ?? '');
	await page.getByRole('textbox', { name: 'kid', exact: true }).fill(account.kid);
	await page.getByRole('textbox', { name: 'client_id', exact: true }).fill(account.client_id);
	// The key typed on the page, so that a download that carried it would be caught.
	await page.getByRole('textbox', { name: 'mac_key', exact: true }).fill(account.mac_key);
	await page.getByText('Use it in your API client').click();
	// The panel's code loads on first use: its buttons are there once it has (six: Postman's two
	// files, Bruno's zip, Hoppscotch's two, the .http file).
	await expect(page.getByRole('button', { name: /^Download / })).toHaveCount(6);
}

/** Clicks `button` and saves what it downloads into `dir` under the file's own name. */
async function save(page: Page, button: string, dir: string): Promise<string> {
	const download = page.waitForEvent('download');
	await page.getByRole('button', { name: button, exact: true }).click();
	const file = await download;
	const path = join(dir, file.suggestedFilename());
	await file.saveAs(path);
	return path;
}

/** Every file of a client for `account`, downloaded through the page into a folder of its own. */
async function downloadAll(page: Page, account: Account, client: string): Promise<string> {
	const dir = join(work, `${client}-${account.kid}`);
	await mkdir(dir, { recursive: true });
	const buttons = page.getByRole('button', { name: /^Download / });
	const names = (await buttons.allTextContents()).map((name) => name.trim());
	if (client === 'bruno') {
		const zip = await save(page, 'Download mac-token-account-api.zip (zip)', dir);
		for (const [path, bytes] of Object.entries(unzipSync(await readFile(zip)))) {
			await mkdir(dirname(join(dir, path)), { recursive: true });
			await writeFile(join(dir, path), bytes);
		}
		return join(dir, 'mac-token-account-api');
	}
	const pattern = client === 'postman' ? /postman_/ : /\.http$|\.env/;
	for (const name of names.filter((name) => pattern.test(name))) await save(page, name, dir);
	return dir;
}

const RUNNERS: Record<string, (dir: string, options: { macKey: string }) => Promise<RunResult[]>> =
	{ postman: runPostman, bruno: runBruno, http: runHttpFile };

for (const [client, run] of Object.entries(RUNNERS)) {
	test(`${client}: the downloaded files sign as the client sends, run by its own runner`, async ({
		page
	}) => {
		failOnPageErrors(page);
		const [profile, basic, encoded] = ACCOUNTS;
		const statuses = (results: RunResult[]) =>
			Object.fromEntries(results.map((result) => [result.operation, result.status]));

		await fillForm(page, profile);
		const profileDir = await downloadAll(page, profile, client);
		// Nothing downloaded holds the key typed on the page.
		const downloaded = join(work, `${client}-${profile.kid}`);
		for (const entry of await readdir(downloaded, { recursive: true, withFileTypes: true })) {
			if (!entry.isFile()) continue;
			const text = await readFile(join(entry.parentPath, entry.name), 'utf8');
			expect(text, entry.name).not.toContain(profile.mac_key);
		}
		expect(statuses(await run(profileDir, { macKey: profile.mac_key }))).toEqual({
			profile: 200,
			'basic-info': 200
		});
		// A wrong mac_key: the service's 401, and the sandbox says the signature does not match.
		const wrong = await run(profileDir, { macKey: 'not-the-key' });
		for (const result of wrong) {
			expect(result.status).toBe(401);
			expect(result.diagnosis ?? '').toMatch(/^reason=mac-mismatch; mistake=/);
		}

		await fillForm(page, basic);
		const basicDir = await downloadAll(page, basic, client);
		expect(statuses(await run(basicDir, { macKey: basic.mac_key }))['basic-info']).toBe(200);

		// A client_id the client re-encodes on the wire (a space, ', non-ASCII) still verifies.
		await fillForm(page, encoded);
		const encodedDir = await downloadAll(page, encoded, client);
		expect(statuses(await run(encodedDir, { macKey: encoded.mac_key }))).toEqual({
			profile: 200,
			'basic-info': 200
		});
	});
}

test('the four downloads are offered in Chinese too', async ({ page }) => {
	failOnPageErrors(page);
	await page.goto('./zh-CN/');
	await page.getByText('在 API 客户端中使用').click();
	// Postman's two files, Bruno's zip, Hoppscotch's two, the .http file.
	await expect(page.getByRole('button', { name: /^下载 / })).toHaveCount(6);
	await expect(
		page.getByRole('button', { name: '下载 mac-token-account-api.zip（zip）' })
	).toBeVisible();
});
