/** An http(s) URL, or null: what may become an <img src> or a link taken from a response body. */
export function httpUrl(text: string): string | null {
	try {
		const url = new URL(text);
		return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
	} catch {
		return null;
	}
}
