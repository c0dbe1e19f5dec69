// Text the page cannot sign as it stands (a lone surrogate, control characters) in a pasted or
// linked request: the diagnosis answers, the marks show it, the link carries it as it is.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { diagnose } from '$lib/diagnosis/diagnose';
import { parseSignedRequest } from '$lib/read';
import { visibleText } from '$lib/ui/visible';
import { decodeShareState, encodeShareState } from '$lib/verify';

const URL = 'https://open.tapapis.cn/account/profile/v1?client_id=x';
const KEY = 'support-desk-key-7Hq';
const ODD_NONCES = ['ab\uD800cd', 'x\uDFFFy', 'a\u0001b\u007f', 'n\u0000\u001b[31m\uD83D'];

/** The mac a client computes that writes the text as UTF-8 (a lone surrogate as U+FFFD). */
function macOf(nonce: string, key = KEY): string {
	const base = `1700000000\n${nonce}\nGET\n/account/profile/v1?client_id=x\nopen.tapapis.cn\n443\n\n`;
	return createHmac('sha1', key).update(base, 'utf8').digest('base64');
}

describe('a nonce with characters no text encoding keeps', () => {
	it.each(ODD_NONCES)(
		'%j: the diagnosis gives a verdict, mismatch or match, and never throws',
		async (nonce) => {
			const authorization = {
				id: 'kid-1',
				ts: '1700000000',
				nonce,
				mac: macOf(nonce, 'other-key')
			};
			const mismatch = await diagnose({ authorization, url: URL, macKey: KEY });
			expect(mismatch.match).toBe(false);
			const match = await diagnose({
				authorization: { ...authorization, mac: macOf(nonce) },
				url: URL,
				macKey: KEY
			});
			expect(match.verdict).toBe('match');
		}
	);

	it('is marked where the page shows it: control characters and lone surrogates by code', () => {
		expect(visibleText('n\u0001\uD800x\u007f')).toBe('n<U+0001><U+D800>x<U+007F>');
		expect(visibleText('\uDFFF')).toBe('<U+DFFF>');
		// A pair is a character, shown as it is.
		expect(visibleText('\uD83D\uDE00')).toBe('\uD83D\uDE00');
	});

	it('goes through a share link as it is, lone surrogate included', () => {
		const signedRequest = `curl '${URL}' -H 'Authorization: MAC id="kid-1234567890",ts="1700000000",nonce="a\uD800\u0001b",mac="${macOf('a')}"'`;
		const state = { signedRequest, url: '', baseString: '', options: {} };
		const shared = decodeShareState(encodeShareState(state, { includeKid: true }));
		expect(parseSignedRequest(shared!.signedRequest).authorization.nonce).toBe('a\uD800\u0001b');
	});
});
