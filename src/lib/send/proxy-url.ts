// The relay's address and the URL that goes to it: loaded with the first choice of the Proxy target
// (sender.svelte.ts), not with the page.
import { text, type Text } from '$lib/i18n/text';
import { MacInputError } from '$lib/mac/errors';

/** What is wrong with a relay address: none typed, not http(s), or no URL with the upstream in it. */
export type ProxyProblem = 'empty' | 'scheme' | 'invalid';

/** A relay address the page cannot use; `problem` says why in no language (the message in English). */
export class ProxySettingError extends MacInputError {
	constructor(
		readonly problem: ProxyProblem,
		readonly setting: string,
		message: string
	) {
		super('proxy', message);
	}
}

/**
 * The URL that goes to a relay for an upstream URL. A setting with `{url}` is a template that takes
 * the upstream URL encoded; any other setting is a prefix that the upstream URL is appended to as is.
 */
export function proxyRequestUrl(setting: string, upstreamUrl: string): string {
	const text = setting.trim();
	if (text === '')
		throw new ProxySettingError(
			'empty',
			text,
			"Enter the relay's address, e.g. http://127.0.0.1:8787/ (start one with npm run proxy)."
		);
	if (!/^https?:\/\//i.test(text))
		throw new ProxySettingError(
			'scheme',
			text,
			"The relay's address must start with http:// or https://."
		);
	try {
		// encodeURIComponent throws on a lone surrogate, new URL on what is no URL: both are bad input.
		const url = text.includes('{url}')
			? text.replaceAll('{url}', encodeURIComponent(upstreamUrl))
			: text + upstreamUrl;
		new URL(url);
		return url;
	} catch {
		throw new ProxySettingError('invalid', text, `"${text}" does not make a valid URL.`);
	}
}

/** What is wrong with the relay's address, in words for the person who typed it. */
export function proxyProblem(error: Error): Text {
	if (!(error instanceof ProxySettingError)) return text('status_proxy_scheme');
	switch (error.problem) {
		case 'empty':
			return text('status_proxy_empty');
		case 'scheme':
			return text('status_proxy_scheme');
		case 'invalid':
			return text('status_proxy_invalid', { setting: error.setting });
	}
}
