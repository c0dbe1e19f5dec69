import { expect, test, type Page } from '@playwright/test';

/** A small deterministic generator, so a failure can be replayed from its seed. */
function random(seed: number) {
	let state = seed >>> 0;
	return () => {
		state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
		return state / 2 ** 32;
	};
}

const HOSTILE = [
	'',
	' ',
	'\n\n\n',
	'"',
	'\\',
	"'",
	'`$(id)`',
	'<script>window.__pwned=1</script>',
	'<img src=x onerror=window.__pwned=1>',
	'javascript:window.__pwned=1',
	'{"__proto__":{"polluted":1}}',
	'{"constructor":{"prototype":{"polluted":1}}}',
	'MAC id="',
	'MAC id="a",ts="1",nonce="n",mac="m",mac="m"',
	'curl "unterminated',
	"curl 'https://open.tapapis.cn/a' -H 'Authorization: MAC id=\"x\"",
	'GET / HTTP/1.1\r\nHost: [::1\r\n\r\n',
	'https://',
	'http://[::1',
	'%%%%%',
	'\u0000\u0001\u0002',
	'\u202e\u200b\ufeff',
	'𝕄𝔸ℂ 🔑',
	'9'.repeat(400),
	'{'.repeat(2000),
	'[' + '1,'.repeat(3000) + '1]',
	'a'.repeat(20_000)
];

function randomText(next: () => number): string {
	const alphabet =
		'MACidtsnoncemac="\',\\ \n\r\t{}[]:/?&%#<>$`^|;0123456789abcdefABCDEF+-_=éü秘🔑\u0000\u200b';
	const length = Math.floor(next() * 200);
	let text = '';
	for (let i = 0; i < length; i++) text += alphabet[Math.floor(next() * alphabet.length)];
	return text;
}

/** Every text box on the page, by its accessible name. */
async function textBoxes(page: Page): Promise<string[]> {
	return page
		.getByRole('textbox')
		.evaluateAll((elements) =>
			elements
				.filter(
					(element) =>
						!(element as HTMLInputElement).readOnly &&
						(element as HTMLElement).offsetParent !== null
				)
				.map((element) => element.id)
		);
}

const PAGES = [
	{
		path: './',
		ready: (page: Page) =>
			expect(page.getByRole('status', { name: 'Authorization header', exact: true })).toBeVisible()
	},
	{
		path: './verify',
		ready: (page: Page) => expect(page.getByText('Waiting for the signed request')).toBeVisible()
	},
	{
		path: './errors',
		ready: (page: Page) => expect(page.getByLabel('Response body')).toBeVisible()
	}
];

for (const { path, ready } of PAGES) {
	test(`fuzz: hostile and random input in every box of ${path} throws nothing and loses nothing`, async ({
		page
	}) => {
		const errors: string[] = [];
		page.on('pageerror', (error) => errors.push(error.message));
		await page.goto(path);
		await ready(page);
		// Open the collapsed boxes and the proxy setting, so that every box is reachable.
		if (path === './') {
			await page.getByText('Paste SDK login result', { exact: true }).first().click();
			await page.getByLabel('Proxy', { exact: true }).check();
		}
		const ids = await textBoxes(page);
		await page.evaluate(() => {
			for (const kind of ['text', 'url', 'password', 'textarea']) {
				const probe = document.createElement(kind === 'textarea' ? 'textarea' : 'input');
				if (probe instanceof HTMLInputElement) probe.type = kind;
				probe.id = `fuzz-probe-${kind}`;
				probe.setAttribute('aria-hidden', 'true');
				document.body.append(probe);
			}
		});
		expect(ids.length).toBeGreaterThan(path === './errors' ? 0 : 2);
		const next = random(path.length * 7919);
		const inputs = [...HOSTILE, ...Array.from({ length: 20 }, () => randomText(next))];
		let typed = 0;
		for (const input of inputs) {
			for (const id of ids) {
				const box = page.locator(`[id="${id}"]`);
				if (!(await box.isVisible())) continue;
				await box.fill(input);
				// What the box should hold is what the browser itself keeps of this input (a one-line box
				// drops or folds line breaks): the same text filled the same way into a bare probe of that kind.
				const kind = await box.evaluate((element) =>
					element instanceof HTMLInputElement ? element.type : 'textarea'
				);
				const probe = page.locator(`[id="fuzz-probe-${kind}"]`);
				await probe.fill(input);
				const expected = await probe.inputValue();
				// An emptied ts box goes back to the live clock by design; anything typed stays as typed.
				if (id === 'ts' && expected === '') await expect(box).toHaveValue(/^\d+$/);
				else
					expect(
						await box.inputValue(),
						`box #${id} after ${JSON.stringify(input.slice(0, 40))}`
					).toBe(expected);
				typed++;
			}
		}
		// A few hundred in all: every input in every box that was visible.
		expect(typed).toBeGreaterThanOrEqual(inputs.length);
		expect(errors).toEqual([]);
		expect(
			await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)
		).toBeUndefined();
		expect(await page.evaluate(() => (({}) as Record<string, unknown>).polluted)).toBeUndefined();
	});
}
