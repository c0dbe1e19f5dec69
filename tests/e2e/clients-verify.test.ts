import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import zoo from './fixtures/zoo-requests.json' with { type: 'json' };
import { failOnPageErrors } from './page-errors';

// Requests the vendor's own clients really signed (the client zoo, tests/clients: each program run
// with its own toolchain, `npm run test:clients`; one request a client copied from the
// verify-sample.json it writes), pasted into /verify as a log line, as a customer's log hands them
// to support: each is diagnosed with the mistake that client makes, and the likely client line names
// that client where the evidence reaches (a fixed nonce: high; the Java sample's `:443`: medium) or
// says unknown, naming the client whose form it is among what was seen.
const CLIENT_NAMES: Record<string, string> = {
	'docs-shell': 'docs shell sample',
	'docs-node-current': 'docs Node.js sample (current)',
	'docs-node-old': 'docs Node.js sample (older)',
	'docs-java': 'docs Java sample',
	'docs-php': 'docs PHP sample',
	'docs-python3': 'docs Python 3 sample',
	'docs-go': 'docs Go sample',
	'unity-sdk': 'Unity SDK (C#)'
};

/** How sure the line is of each client's request here; unknown for forms other code writes too. */
const CONFIDENCE: Record<string, string> = {
	'docs-shell': 'high confidence',
	'docs-php': 'high confidence',
	'docs-go': 'high confidence',
	'docs-java': 'medium confidence'
};

test.beforeEach(({ page }) => failOnPageErrors(page));

for (const request of zoo) {
	test(`${request.client}, ${request.name}: named ${request.expected}, and the client named`, async ({
		page
	}) => {
		await page.goto('./verify');
		const line = JSON.stringify({
			method: 'GET',
			url: request.url,
			authorization: request.authorization
		});
		await page.getByRole('textbox', { name: 'Signed request' }).fill(line);
		await page.getByRole('textbox', { name: 'mac_key' }).fill(request.macKey);
		await expect(page.getByRole('textbox', { name: 'Request URL' })).toHaveValue(request.url);
		await expect(
			page.getByRole('list', { name: 'Diagnosis' }).getByRole('listitem').first()
		).toBeVisible();
		const likely = page.getByRole('status', { name: 'Likely client:', exact: true });
		await expect(likely).toContainText(CLIENT_NAMES[request.client] ?? request.client);
		await expect(likely).toContainText(CONFIDENCE[request.client] ?? 'unknown; seen:');

		// The report names the mistake by its catalogue id, first of the reproductions.
		const [download] = await Promise.all([
			page.waitForEvent('download'),
			page.getByRole('button', { name: 'Download report (Markdown)' }).click()
		]);
		const report = await readFile((await download.path()) ?? '', 'utf8');
		const first = /^1\. \*\*.*\*\* \(`([^`]+)`\)$/m.exec(report)?.[1];
		expect(first).toBe(request.expected);
		expect(report).toContain(CLIENT_NAMES[request.client]);
	});
}
