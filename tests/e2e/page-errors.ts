import type { Page } from '@playwright/test';

/** Fails the test on an uncaught page error or a console error (a failed non-2xx fetch excepted). */
export function failOnPageErrors(page: Page): void {
	page.on('pageerror', (error) => {
		throw error;
	});
	page.on('console', (message) => {
		// Chromium logs every non-2xx response as a failed resource; those are expected here.
		if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
			throw new Error(`console error: ${message.text()}`);
		}
	});
}
