// Every page's main path, as a user walks it, written once for any engine (driver.ts): the same
// names and answers the e2e suite holds Chromium to (tests/e2e/playground, send, verify, triage,
// i18n-*). The suite (suite.ts) runs each in Firefox and in WebKit and, after each, fails on any
// console error or uncaught error of the pages the path visited.
import { createHmac } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { triageLogText } from '../bench/triage-log.js';
import { DEMO_ACCOUNTS } from '../../src/lib/sandbox/accounts';
import {
	expectText,
	WAIT_MS,
	until,
	type Control,
	type Engine,
	type Role,
	type Tab
} from './driver';

export interface Context {
	engine: Engine;
	tab: Tab;
	/** The reference relay's address. */
	relay: string;
}

export interface Path {
	name: string;
	run(context: Context): Promise<void>;
}

// A customer's request, signed here with node:crypto, apart from the code under test.
const KEY = 'support-desk-key-7Hq';
const KID = 'kid-of-a-customer-1234';
const URL_SIGNED = 'https://open.tapapis.cn/account/profile/v1?client_id=cust-app';
const TS = String(Math.floor(Date.now() / 1000));
const NONCE = 'bm9uY2Utbm9uY2UtMTY=';
const BASE = `${TS}\n${NONCE}\nGET\n/account/profile/v1?client_id=cust-app\nopen.tapapis.cn\n443\n\n`;
const MAC = createHmac('sha1', KEY).update(BASE).digest('base64');
const AUTHORIZATION = `MAC id="${KID}",ts="${TS}",nonce="${NONCE}",mac="${MAC}"`;
// The same request signed with the host's port, a mistake the diagnosis names.
const MAC_WITH_PORT = createHmac('sha1', KEY)
	.update(BASE.replace('open.tapapis.cn\n', 'open.tapapis.cn:443\n'))
	.digest('base64');

const HAR = JSON.stringify({
	log: {
		version: '1.2',
		entries: [
			{ request: { method: 'GET', url: 'https://example.com/app.js', headers: [] } },
			{
				request: {
					method: 'GET',
					url: URL_SIGNED,
					headers: [
						{ name: 'cookie', value: 'session=customer-session-cookie' },
						{ name: 'authorization', value: AUTHORIZATION.replace(MAC, MAC_WITH_PORT) }
					]
				},
				response: { status: 401, content: { text: '{"success":false}' } }
			}
		]
	}
});

/** The demo account with basic_info only: the sandbox knows its token, and it is not the preset. */
const PASTED = DEMO_ACCOUNTS.find((account) => account.id === 'demo-basic');
if (!PASTED) throw new Error('the demo-basic account is gone from src/lib/sandbox/accounts.ts');

/** Clear everything, on the Chinese pages. */
const CLEAR_ZH = '全部清除';

const FORBIDDEN_BODY =
	'{"data":{"code":0,"error":"forbidden","error_description":"no","msg":"No permission"},"now":1,"success":false}';

const log = triageLogText({ requests: 40, faultRate: 0.3, seed: 5 });
const CSV_HEAD =
	'number,method,url,kid,verdict,refusal,mistake,status,ts_age_seconds,ts_outside_window,nonce_first_used_at,unreadable,likely_client,likely_client_confidence,likely_client_evidence';

/**
 * Opens `path` and waits until the page has hydrated: its controls are disabled until then
 * (routes/+layout.svelte), so what a path does next is heard. `clear` is the name of the header's
 * Clear everything button in the page's language.
 */
async function open(tab: Tab, path: string, clear = 'Clear everything'): Promise<void> {
	await tab.goto(path);
	const button = await tab.find('button', clear);
	await until(`${path} to hydrate`, async () => ((await button.enabled()) ? true : undefined));
}

/** The element `role` `name` once its text holds `expected`, within `timeout` ms in all. */
async function shows(tab: Tab, role: Role, name: string, expected: string, timeout = WAIT_MS) {
	const deadline = Date.now() + timeout;
	const element = await tab.find(role, name, timeout);
	await until(
		`the ${role} "${name}" to contain ${expected}`,
		async (seen) => {
			const text = await element.text();
			seen.last = JSON.stringify(text.slice(0, 300));
			return text.includes(expected) ? true : undefined;
		},
		Math.max(0, deadline - Date.now())
	);
	return element;
}

/** Presses Send and returns the Response region (an answer, or why none came). */
async function pressSend(tab: Tab, send = 'Send', response = 'Response'): Promise<Control> {
	await (await tab.find('button', send)).click();
	return tab.find('region', response);
}

/** Opens the signing page, once it has hydrated and shows its header. */
async function openSigning(
	tab: Tab,
	path: string,
	headerName: string,
	clear?: string
): Promise<void> {
	await open(tab, path, clear);
	await tab.find('status', headerName);
}

async function expectValue(tab: Tab, name: string, expected: string): Promise<void> {
	const field = await tab.find('textbox', name);
	await expectText(
		`the value of ${name}`,
		() => field.value(),
		new RegExp(`^${escape(expected)}$`)
	);
}

function escape(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The file named `name` once the engine has finished saving it, then removed. */
async function downloaded(engine: Engine, name: string, complete: (text: string) => boolean) {
	const path = join(engine.downloads, name);
	const text = await until(`${name} in ${engine.downloads}`, async (seen) => {
		const files = await readdir(engine.downloads).catch((): string[] => []);
		seen.last = files.join(', ');
		if (!files.includes(name)) return undefined;
		const content = await readFile(path, 'utf8');
		return complete(content) ? content : undefined;
	});
	await rm(path);
	return text;
}

export const PATHS: Path[] = [
	{
		name: 'sign with a pasted SDK login result and send to the sandbox',
		async run({ tab }) {
			await openSigning(tab, './', 'Authorization header');
			await (await tab.findText('Paste SDK login result')).click();
			await (
				await tab.find('textbox', 'Paste SDK login result')
			).fill(
				JSON.stringify({
					kid: PASTED.kid,
					access_token: PASTED.kid,
					token_type: 'mac',
					mac_key: PASTED.macKey,
					mac_algorithm: 'hmac-sha-1',
					scopeSet: PASTED.scopes
				})
			);
			await expectValue(tab, 'kid', PASTED.kid);
			const header = await tab.find('status', 'Authorization header');
			await expectText('the header', () => header.text(), `MAC id="${PASTED.kid}"`);
			const response = await pressSend(tab);
			// The whole answer in the message if it is not a 200: the status line, or why none came.
			await expectText('the response', () => response.text(), '200 OK');
			const status = await tab.find('status', 'HTTP status');
			await expectText('the HTTP status', () => status.text(), '200 OK');
			// basic_info's fields: the pasted token's scope, not the preset's profile.
			await expectText('the response', () => response.text(), 'unionid');
			expect(await response.text()).not.toContain('Ada Demo');
		}
	},
	{
		name: 'send through the reference relay (a cross-origin request with CORS)',
		async run({ tab, relay }) {
			await openSigning(tab, './', 'Authorization header');
			await (await tab.find('radio', 'Proxy')).click();
			await (await tab.find('textbox', 'Relay address')).fill(relay);
			const response = await pressSend(tab);
			await expectText('the response', () => response.text(), '200 OK');
			const status = await tab.find('status', 'HTTP status');
			await expectText('the HTTP status', () => status.text(), '200 OK');
			await expectText('the response', () => response.text(), 'via proxy');
		}
	},
	{
		name: 'verify a pasted Authorization header with its request',
		async run({ tab }) {
			await open(tab, 'verify');
			await (await tab.find('textbox', 'Signed request')).fill(`Authorization: ${AUTHORIZATION}`);
			await (await tab.find('textbox', 'mac_key')).fill(KEY);
			await (await tab.find('textbox', 'Request URL')).fill(URL_SIGNED);
			await shows(tab, 'status', 'Expected mac', MAC);
			const customer = await tab.find('status', "Customer's mac");
			await expectText("the customer's mac", () => customer.text(), MAC);
			const expected = await tab.find('status', 'Expected mac');
			await expectText('the expected mac', () => expected.text(), MAC);
		}
	},
	{
		name: 'verify a pasted HAR, and open its share link in a fresh tab',
		async run({ engine, tab }) {
			await open(tab, 'verify');
			await (await tab.find('textbox', 'Signed request')).fill(HAR);
			await (await tab.find('textbox', 'mac_key')).fill(KEY);
			await shows(tab, 'status', 'Expected mac', MAC);
			await expectValue(tab, 'Request URL', URL_SIGNED);
			const customer = await tab.find('status', "Customer's mac");
			await expectText("the customer's mac", () => customer.text(), MAC_WITH_PORT);
			const expected = await tab.find('status', 'Expected mac');
			await expectText('the expected mac', () => expected.text(), MAC);
			const field = await tab.find('textbox', 'Share link');
			const link = await until('a share link', async () => (await field.value()) || undefined);
			expect(link).toContain('#v1.');
			// The case travels in the fragment, base64url-encoded: read it as the page will.
			const payload = Buffer.from(link.split('#v1.')[1] ?? '', 'base64url').toString('utf8');
			expect(payload).toContain('Authorization: MAC');
			for (const text of [link, decodeURIComponent(link), payload]) expect(text).not.toContain(KEY);
			expect(payload).not.toContain('customer-session-cookie');

			const fresh = await engine.newTab();
			try {
				await fresh.goto(link);
				const signed = await fresh.find('textbox', 'Signed request');
				await expectText('the restored request', () => signed.value(), MAC_WITH_PORT);
				expect(await signed.value()).not.toContain('customer-session-cookie');
				await expectValue(fresh, 'mac_key', '');
				await (await fresh.find('textbox', 'mac_key')).fill(KEY);
				const restored = await fresh.find('status', 'Expected mac');
				await expectText('the expected mac in the fresh tab', () => restored.text(), MAC);
				expect(await fresh.errors()).toEqual([]);
			} finally {
				await fresh.close();
			}
		}
	},
	{
		name: 'triage a pasted log and download the CSV',
		async run({ engine, tab }) {
			await open(tab, 'triage');
			await (await tab.find('textbox', 'Requests')).fill(log.text);
			await (await tab.find('textbox', 'Keys')).fill(log.keys);
			await (await tab.find('button', 'Triage')).click();
			const summary = await tab.find('table', 'Summary');
			const progress = await tab.find('region', 'Triage progress');
			await until('the Summary to stand', async (seen) => {
				const busy = await summary.attribute('aria-busy');
				// What the run showed, for a run that does not end.
				seen.last = `aria-busy=${busy}; ${JSON.stringify((await progress.text()).replace(/\s+/g, ' ').trim())}`;
				return busy === 'false' ? true : undefined;
			});
			await (await tab.find('button', 'Download the verdicts (CSV)')).click();
			const rows = log.expected.requests + 2;
			const csv = await downloaded(
				engine,
				'triage-verdicts.csv',
				(text) => text.split('\r\n').length >= rows
			);
			const lines = csv.split('\r\n');
			expect(lines[0]).toBe(CSV_HEAD);
			expect(lines).toHaveLength(rows);
			expect(lines.at(-1)).toBe('');
			expect(lines.filter((line) => line.includes(',match,'))).toHaveLength(log.expected.match);
			expect(lines.filter((line) => line.includes(',mismatch,'))).toHaveLength(
				log.expected.mismatch
			);
			for (const pair of log.keys.trim().split('\n')) {
				const [kid = '', key = ''] = pair.split(' ');
				expect(csv).not.toContain(key);
				expect(csv).not.toContain(kid);
			}
		}
	},
	{
		name: 'the errors page explains a pasted body',
		async run({ tab }) {
			await open(tab, 'errors');
			await (await tab.find('textbox', 'Response body')).fill(FORBIDDEN_BODY);
			const region = await tab.find('region', 'forbidden');
			await expectText('the explanation', () => region.text(), 'do not resubmit the request');
		}
	},
	{
		name: 'the Chinese pages: a signature sent to the sandbox, verified, and a body explained',
		async run({ tab }) {
			await openSigning(tab, 'zh-CN/', 'Authorization 请求头', CLEAR_ZH);
			const header = await tab.find('status', 'Authorization 请求头');
			await expectText(
				'the header',
				() => header.text(),
				/^MAC id="demo-kid-profile-4f1c",ts="\d+",nonce="[^"]+",mac="[^"]+"$/
			);
			const response = await pressSend(tab, '发送', '响应');
			await expectText('the response', () => response.text(), '200 OK');
			const status = await tab.find('status', 'HTTP 状态码');
			await expectText('the HTTP status', () => status.text(), '200 OK');

			await open(tab, 'zh-CN/verify', CLEAR_ZH);
			await (await tab.find('textbox', '已签名的请求')).fill(`Authorization: ${AUTHORIZATION}`);
			await (await tab.find('textbox', 'mac_key')).fill(KEY);
			await (await tab.find('textbox', '请求 URL')).fill(URL_SIGNED);
			await shows(tab, 'status', '预期的 mac', MAC);
			const expected = await tab.find('status', '预期的 mac');
			await expectText('the expected mac', () => expected.text(), MAC);

			await open(tab, 'zh-CN/errors', CLEAR_ZH);
			await (await tab.find('textbox', '响应体')).fill(FORBIDDEN_BODY);
			const region = await tab.find('region', 'forbidden');
			await expectText('the explanation', () => region.text(), 'No permission');
		}
	}
];
