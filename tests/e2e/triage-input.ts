// Gives /triage a log as a file and the keys held, found by the names a user reads, in either
// language: what most triage tests do before they press Triage.
import type { Page } from '@playwright/test';

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
	await page.getByLabel(names.file).setInputFiles({
		name,
		mimeType: 'application/x-ndjson',
		buffer: Buffer.from(log.text)
	});
	await page.getByRole('textbox', { name: names.keys, exact: true }).fill(log.keys);
}
