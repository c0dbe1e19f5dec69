// The sandbox page's live view against a running sandbox server (issue 25 §5): the built
// sandbox-server.mjs started as its own process on loopback, requests sent to it from here (signed
// with node:crypto, not the page's code), and the page shows each with its verdict, diagnosis and
// base string, and opens one on /verify. The download and its SHA-256 are the file the build wrote.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { expect, test } from '@playwright/test';
import { ACCOUNTS_FILE_EXAMPLE, DEMO_ACCOUNTS } from '../../src/lib/sandbox/accounts';
import { expectNoEnglishProse } from './english-prose';
import { failOnPageErrors } from './page-errors';

const KID = 'demo-kid-profile-4f1c';
const KEY = 'demo-mac-key-profile-Q9sLx2';
const PATH = '/account/profile/v1?client_id=demo-client-0001';
const BUILT = new URL('../../build/sandbox-server.mjs', import.meta.url);

interface Server {
	child: ChildProcess;
	port: number;
}

/** Starts the built sandbox-server.mjs on a free loopback port, allowing the page's origin. */
function startServer(origin: string): Promise<Server> {
	const child = spawn(process.execPath, [BUILT.pathname, '--port', '0', '--allow-origin', origin], {
		stdio: ['ignore', 'pipe', 'pipe']
	});
	return new Promise((resolve, reject) => {
		let output = '';
		child.stdout?.on('data', (chunk: Buffer) => {
			output += chunk.toString();
			const line = /^listening http:\/\/127\.0\.0\.1:(\d+)\n/.exec(output);
			if (line) resolve({ child, port: Number(line[1]) });
		});
		child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
	});
}

/**
 * Sends a GET to the server on loopback, signed with `key` over host 127.0.0.1 and its port, or
 * over the host and port of `signed` (a production URL signed while the sandbox is called).
 */
function send(
	port: number,
	key: string,
	nonce: string,
	signed = { host: '127.0.0.1', port: String(port) }
): Promise<number> {
	const ts = String(Math.floor(Date.now() / 1000));
	const base = `${ts}\n${nonce}\nGET\n${PATH}\n${signed.host}\n${signed.port}\n\n`;
	const mac = createHmac('sha1', key).update(base).digest('base64');
	return new Promise((resolve, reject) => {
		const request = httpRequest(
			{
				host: '127.0.0.1',
				port,
				path: PATH,
				headers: { authorization: `MAC id="${KID}",ts="${ts}",nonce="${nonce}",mac="${mac}"` }
			},
			(answer) => {
				answer.resume();
				answer.on('end', () => resolve(answer.statusCode ?? 0));
			}
		);
		request.on('error', reject);
		request.end();
	});
}

let server: Server | undefined;

test.afterEach(() => {
	server?.child.kill();
	server = undefined;
});

test('the live journal shows each request as it arrives, and opens one on /verify', async ({
	page,
	baseURL
}) => {
	failOnPageErrors(page);
	const origin = new URL(baseURL ?? '').origin;
	server = await startServer(origin);
	const { port } = server;
	expect(await send(port, KEY, 'nonce-before-the-page')).toBe(200);

	await page.goto('sandbox');
	await page.getByLabel('Sandbox server address').fill(`http://127.0.0.1:${port}`);
	await page.getByRole('button', { name: 'Connect', exact: true }).click();
	const status = page.getByRole('status', { name: 'Connection' });
	await expect(status).toContainText('Connected');
	const table = page.getByRole('table', { name: 'Requests the sandbox server received' });
	// What came before the page connected is read from the journal.
	await expect(table.getByRole('row')).toHaveCount(2);

	// A request signed with a wrong key, sent now, appears live with why it failed.
	expect(await send(port, 'not-the-key', 'nonce-wrong-key')).toBe(401);
	await expect(table.getByRole('row')).toHaveCount(3);
	const newest = table.getByRole('row').nth(1);
	await expect(newest).toContainText('mac-mismatch');
	await expect(newest).toContainText('401');
	// Why, as a sentence; the header as sent one click away.
	await expect(newest).toContainText(
		'The mac does not match, and no catalogued mistake reproduces it: check the mac_key'
	);
	const raw = newest.getByRole('group').filter({ hasText: 'X-Sandbox-Diagnosis as sent' });
	await expect(raw.getByText(/^reason=mac-mismatch; mistake=unexplained; /)).toBeHidden();
	await raw.getByText('X-Sandbox-Diagnosis as sent').click();
	await expect(raw.getByText(/^reason=mac-mismatch; mistake=unexplained; /)).toBeVisible();
	await expect(newest).not.toContainText(KEY);
	await newest.getByText('Base string').click();
	await expect(newest).toContainText(`nonce-wrong-key↵`);

	// The production host signed while the sandbox's own address is called: said as exactly that.
	const production = { host: 'open.tapapis.cn', port: '443' };
	expect(await send(port, KEY, 'nonce-production-host', production)).toBe(401);
	await expect(table.getByRole('row')).toHaveCount(4);
	await expect(table.getByRole('row').nth(1)).toContainText(
		`Signed open.tapapis.cn but called 127.0.0.1:${port}: sign the host you call.`
	);
	await expect(table.getByRole('row').nth(1)).not.toContainText('other deployment');

	await page.getByRole('button', { name: 'Open request 2 on the verify page' }).click();
	await expect(page).toHaveURL(/\/verify$/);
	const pasted = await page.getByLabel('Signed request').inputValue();
	expect(pasted).toContain(`http://127.0.0.1:${port}${PATH}`);
	expect(pasted).toContain('nonce="nonce-wrong-key"');
});

test('a server that is not running is said plainly, with what to do', async ({ page }) => {
	failOnPageErrors(page);
	await page.goto('sandbox');
	// A port nothing listens on: the suite's own, plus one, is not guaranteed free, so take the
	// relay-free choice of port 9 (discard), which is closed on loopback here.
	await page.getByLabel('Sandbox server address').fill('http://127.0.0.1:9');
	await page.getByRole('button', { name: 'Connect', exact: true }).click();
	await expect(page.getByRole('status', { name: 'Connection' })).toContainText(
		'No sandbox server answered at http://127.0.0.1:9'
	);
	await page.getByLabel('Sandbox server address').fill('ftp://127.0.0.1');
	await page.getByRole('button', { name: 'Connect', exact: true }).click();
	await expect(page.getByLabel('Sandbox server address')).toHaveAttribute('aria-invalid', 'true');
});

test('the download is the file the build wrote, with its SHA-256, in both languages', async ({
	page
}) => {
	failOnPageErrors(page);
	const built = await readFile(BUILT);
	const hash = createHash('sha256').update(built).digest('hex');
	for (const [path, name] of [
		['sandbox', 'Download sandbox-server.mjs'],
		['zh-CN/sandbox', '下载 sandbox-server.mjs']
	] as const) {
		await page.goto(path);
		const link = page.getByRole('link', { name });
		await expect(page.getByText(`SHA-256 ${hash}`)).toBeVisible();
		const download = page.waitForEvent('download');
		await link.click();
		const file = await (await download).path();
		expect(
			createHash('sha256')
				.update(await readFile(file))
				.digest('hex')
		).toBe(hash);
	}
});

test('the Chinese page connects by its Chinese names', async ({ page, baseURL }) => {
	failOnPageErrors(page);
	server = await startServer(new URL(baseURL ?? '').origin);
	await send(server.port, KEY, 'nonce-zh');
	await page.goto('zh-CN/sandbox');
	await page.getByLabel('沙盒服务地址').fill(`http://127.0.0.1:${server.port}`);
	await page.getByRole('button', { name: '连接', exact: true }).click();
	await expect(page.getByRole('status', { name: '连接状态' })).toContainText('已连接');
	const table = page.getByRole('table', { name: '沙盒服务收到的请求' });
	await expect(table.getByRole('row')).toHaveCount(2);
	await expect(page.getByRole('button', { name: '在校验页打开第 1 个请求' })).toBeVisible();
	// A failure says why in Chinese; the service's own words stay in the raw header, folded away.
	const production = { host: 'open.tapapis.cn', port: '443' };
	expect(await send(server.port, KEY, 'nonce-zh-host', production)).toBe(401);
	expect(await send(server.port, 'not-the-key', 'nonce-zh-key')).toBe(401);
	await expect(table.getByRole('row')).toHaveCount(4);
	await expect(table.getByRole('row').nth(2)).toContainText(
		`签算的请求域名是 open.tapapis.cn，实际调用的是 127.0.0.1:${server.port}：请签算实际调用的请求域名。`
	);
	await expect(table.getByRole('row').nth(1)).toContainText('签名不一致');
	await expectNoEnglishProse(page);
});

test('the page lists the demo accounts, each key behind Show, and the accounts file', async ({
	page
}) => {
	failOnPageErrors(page);
	await page.goto('sandbox');
	const accounts = page.getByRole('table', { name: 'The demo accounts' });
	for (const account of DEMO_ACCOUNTS) {
		const row = accounts.getByRole('row', { name: new RegExp(account.kid) });
		await expect(row).toContainText(account.clientId);
		for (const scope of account.scopes) await expect(row).toContainText(scope);
		await expect(row).not.toContainText(account.macKey);
		await row.getByRole('button', { name: `Show the mac_key of kid ${account.kid}` }).click();
		await expect(row.getByText(account.macKey, { exact: true })).toBeVisible();
		await row.getByRole('button', { name: `Hide the mac_key of kid ${account.kid}` }).click();
		await expect(row).not.toContainText(account.macKey);
	}
	await expect(
		page.getByRole('heading', { name: 'Your accounts: the accounts file' })
	).toBeVisible();
	const example = page.locator('pre').filter({ hasText: '"kid": "ci-kid-1"' });
	await expect(example).toContainText(ACCOUNTS_FILE_EXAMPLE);
	expect(JSON.parse((await example.textContent()) ?? '')).toHaveLength(2);
	await expect(
		page.getByText('node sandbox-server.mjs --port 8787 --accounts accounts.json')
	).toBeVisible();

	await page.goto('zh-CN/sandbox');
	const zhAccounts = page.getByRole('table', { name: '演示账户' });
	const first = DEMO_ACCOUNTS[0]!;
	await zhAccounts.getByRole('button', { name: `显示 kid ${first.kid} 的 mac 密钥` }).click();
	await expect(zhAccounts.getByText(first.macKey, { exact: true })).toBeVisible();
	await expect(page.getByRole('heading', { name: '你的账户：账户文件' })).toBeVisible();
	await expectNoEnglishProse(page);
});
