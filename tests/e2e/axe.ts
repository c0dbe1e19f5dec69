// axe-core's accessibility rules, run in a page: what the a11y and i18n tests ask of every page.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

const axeSource = readFileSync(
	createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
	'utf8'
);

interface AxeViolation {
	id: string;
	help: string;
	nodes: { target: string[] }[];
}

/** Runs axe-core in the page (through the debugger protocol, so the page's CSP does not apply). */
export async function violations(page: Page): Promise<string[]> {
	await page.evaluate(axeSource);
	const found = await page.evaluate(async () => {
		const axe = (
			window as unknown as {
				axe: {
					run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }>;
				};
			}
		).axe;
		return (await axe.run(document, { resultTypes: ['violations'] })).violations;
	});
	return found.map(
		(violation) =>
			`${violation.id}: ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`
	);
}
