import { expect, type Page } from '@playwright/test';

/**
 * English prose a person can see on the page: every visible text node (and the accessible text of
 * controls: placeholders, labels, titles) that holds three English words in a row, outside code.
 * Code is what stays the same in every language: <code>, <pre>, <kbd>, <samp>, the values in
 * <output>, <textarea> and <input>, and anything marked translate="no" or lang="en".
 */
export async function englishProse(page: Page): Promise<string[]> {
	return page.evaluate(() => {
		// Two words of two or more Latin letters in a row, separated by spaces or light punctuation:
		// "Send it", "base string" (not "HMAC-SHA-1", not "GET /account/basic-info/v1", not
		// "MAC id=": a word before "=" is code).
		const words = /(?:^|[^\w/.-])[A-Z]{2,}(?:[ ,'’]+[A-Z]{2,})+(?![\w/.="-])/i;
		const terms =
			/Mac Token|Client ID|query string|Access Token|Git Bash|Windows cmd|Copy as (?:fetch|PowerShell|cURL)/g;
		// What the page quotes back (“what you pasted”) is the user's text, not the page's.
		const quoted = /“[^“”]*”/g;
		const sentence = {
			test: (text: string) => words.test(text.replace(terms, '').replace(quoted, '“”'))
		};
		const code =
			'code, pre, kbd, samp, output, textarea, script, style, [translate="no"], [lang="en"]';
		const found = new Set<string>();
		const visible = (element: Element) => {
			const box = element.getBoundingClientRect();
			if (box.width === 0 && box.height === 0) return false;
			const style = getComputedStyle(element);
			return style.visibility !== 'hidden' && style.display !== 'none';
		};
		const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
		for (let node = walker.nextNode(); node; node = walker.nextNode()) {
			const parent = node.parentElement;
			const text = (node.textContent ?? '').replace(/\s+/g, ' ').trim();
			if (!parent || text === '' || parent.closest(code) || !visible(parent)) continue;
			if (sentence.test(text)) found.add(text);
		}
		for (const element of document.body.querySelectorAll('[placeholder], [title], [aria-label]')) {
			if (element.closest(code) || !visible(element)) continue;
			for (const name of ['placeholder', 'title', 'aria-label']) {
				const value = element.getAttribute(name);
				if (value && sentence.test(value)) found.add(`${name}="${value}"`);
			}
		}
		if (sentence.test(document.title)) found.add(`title: ${document.title}`);
		return [...found];
	});
}

/**
 * Fails when a person can read an English sentence on this (Chinese) page, outside code. Read once:
 * each caller first waits for the state it leaves the page in.
 */
export async function expectNoEnglishProse(page: Page): Promise<void> {
	expect(await englishProse(page)).toEqual([]);
}
