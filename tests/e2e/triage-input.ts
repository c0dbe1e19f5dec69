// Gives /triage a log as a file and the keys held, found by the names a user reads, in either
// language, and reads the Summary's final counts: what most triage tests do around Triage.
import { expect, type Page } from '@playwright/test';

const NAMES = {
	en: { path: './triage', file: 'Requests file', keys: 'Keys' },
	'zh-CN': { path: './zh-CN/triage', file: '请求文件', keys: '密钥' }
} as const;

/** Opens /triage in `language`, chooses `log.text` as an NDJSON file and types `log.keys`. */
export async function giveLog(
	page: Page,
	log: { text: string; keys: string },
	{ language = 'en', name = 'calls.ndjson' }: { language?: keyof typeof NAMES; name?: string } = {}
): Promise<void> {
	const names = NAMES[language];
	await page.goto(names.path);
	await chooseFile(page, names.file, {
		name,
		mimeType: 'application/x-ndjson',
		buffer: Buffer.from(log.text)
	});
	await page.getByRole('textbox', { name: names.keys, exact: true }).fill(log.keys);
}

/**
 * Chooses `file` in the file field labelled `label`. The field is disabled until the page has
 * hydrated (routes/+layout.svelte), so the choice waits for it to be enabled and is made once.
 */
export async function chooseFile(
	page: Page,
	label: string,
	file: { name: string; mimeType: string; buffer: Buffer }
): Promise<void> {
	const field = page.getByLabel(label);
	await expect(field).toBeEnabled();
	await field.setInputFiles(file);
	await expect(page.getByText(file.name, { exact: true }).first()).toBeVisible();
}

/** The Summary named `name` as group → count, read from its rows once the run's own counts stand. */
export async function summaryCounts(page: Page, name: string): Promise<Record<string, string>> {
	const table = page.getByRole('table', { name, exact: true });
	await expect(table).toBeVisible();
	// The counts fill as the verdicts come; the run's own summary ends them.
	await expect(table).toHaveAttribute('aria-busy', 'false');
	return table.evaluate((element) => {
		const counts: Record<string, string> = {};
		for (const row of element.querySelectorAll('tbody tr'))
			counts[row.querySelector('th')?.textContent?.trim() ?? ''] =
				row.querySelector('td')?.textContent?.trim() ?? '';
		return counts;
	});
}
