import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Playground } from '$lib/playground/playground.svelte';
import { ignoredText, pasteCredential } from '$lib/playground/first-use/paste';
import { PRESETS } from '$lib/playground/presets';
import { fieldMessage, presetLabel, problemTextsLoaded } from '$lib/playground/texts';
import { replacedText } from '$lib/playground/first-use/replaced';
import { urlNoteText } from '$lib/playground/first-use/url-note';
import { macErrorText } from '$lib/i18n/mac-error-text';

const draft = PRESETS.find((preset) => preset.id === 'draft-example')!;

async function header(playground: Playground) {
	const signed = await playground.signed;
	return signed?.ok ? signed.value.header : null;
}

describe('Playground', () => {
	it('signs the draft example to its correct mac', async () => {
		const playground = new Playground(draft);
		expect(playground.base).toBe(
			'1336363200\ndj83hs9s\nGET\n/resource/1?b=1&a=2\nexample.com\n80\n\n'
		);
		expect(await header(playground)).toBe(
			'MAC id="h480djs93hd8",ts="1336363200",nonce="dj83hs9s",mac="6T3zZzy2Emppni6bzL7kdRxUWL4="'
		);
	});

	it('follows the inputs: region, client_id, scopes and the comma style', async () => {
		const playground = new Playground();
		playground.kid = 'k1';
		playground.macKey = 'sécret';
		playground.fixedTs = '0012345678';
		playground.nonce = 'n0nce';
		playground.region = 'overseas';
		playground.clientId = 'cid 1';
		playground.scopes = { basic_info: true, public_profile: false };
		playground.headerSpace = true;

		expect(playground.url).toBe(`${__OVERSEAS_BASE_URL__}/account/basic-info/v1?client_id=cid%201`);
		const base = `0012345678\nn0nce\nGET\n/account/basic-info/v1?client_id=cid%201\n${new URL(__OVERSEAS_BASE_URL__).hostname}\n443\n\n`;
		expect(playground.base).toBe(base);
		const mac = createHmac('sha1', 'sécret').update(base).digest('base64');
		expect(await header(playground)).toBe(
			`MAC id="k1", ts="0012345678", nonce="n0nce", mac="${mac}"`
		);
	});

	it('lets a manual operation override the scope rule', () => {
		const playground = new Playground();
		playground.scopes = { basic_info: true, public_profile: false };
		expect(playground.operation).toBe('basic-info');
		playground.operationOverride = 'profile';
		expect(playground.url).toContain('/account/profile/v1?');
	});

	it('builds no header while a blocking field is wrong, and says which', async () => {
		const playground = new Playground();
		playground.kid = '';
		playground.macAlgorithm = 'hmac-sha-256';
		expect(playground.blockingFields).toEqual(['kid', 'mac_algorithm']);
		// The words for a problem load with the first one shown.
		await problemTextsLoaded();
		expect(fieldMessage(playground.messages.mac_algorithm)?.message).toMatch(/not supported/);
		expect(await playground.signed).toBeNull();
	});

	it('signs a non-decimal ts exactly as typed, with a warning that does not block', async () => {
		const playground = new Playground();
		playground.setTs('1700000000000');
		await problemTextsLoaded();
		expect(fieldMessage(playground.messages.ts)).toEqual({
			message: expect.stringMatching(/milliseconds/),
			blocking: false
		});
		expect(await header(playground)).toContain('ts="1700000000000"');
		playground.setTs('');
		expect(playground.fixedTs).toBeNull();
	});

	it('pads the live ts and a fixed ts of digits, never a ts typed otherwise', () => {
		const playground = new Playground();
		playground.setPad10(true);
		expect(playground.ts).toMatch(/^\d{10}$/);
		playground.setTs('12345');
		playground.setPad10(true);
		expect(playground.ts).toBe('0000012345');
		playground.setPad10(false);
		expect(playground.ts).toBe('12345');
		playground.setTs('12 34');
		playground.setPad10(true);
		expect(playground.ts).toBe('12 34');
	});

	it('fills the credential from a pasted SDK result, keeping what it cannot use out', () => {
		const playground = new Playground();
		playground.clientId = 'kept';
		const { problem, filled } = pasteCredential(
			playground,
			JSON.stringify({
				kid: 'pasted',
				mac_key: 'pk',
				token_type: 'mac',
				mac_algorithm: 'rsa',
				scopeSet: ['basic_info']
			})
		);
		expect(problem && macErrorText(problem)).toMatch(/mac_algorithm "rsa" is not supported/);
		expect(filled).toEqual(['kid', 'mac_key', 'mac_algorithm', 'token_type', 'scopes']);
		expect([playground.kid, playground.macKey, playground.clientId]).toEqual([
			'pasted',
			'pk',
			'kept'
		]);
		expect(pasteCredential(playground, '{oops').problem?.message).toMatch(/not JSON/);
		expect(playground.kid).toBe('pasted');
	});

	it('reads the login result out of a logcat line and says what it ignored, never the key', () => {
		const playground = new Playground();
		const prefix = '11-21 10:00:01.123 12345-12345/com.example.game D/TapLogin: onLoginSuccess:';
		const json = JSON.stringify({
			kid: 'logcat-kid',
			mac_key: 'logcat-key',
			token_type: 'mac',
			mac_algorithm: 'hmac-sha-1',
			scopeSet: ['public_profile']
		});
		const result = pasteCredential(playground, `${prefix} ${json} (logcat-key)`);
		expect(result.problem).toBeNull();
		expect([playground.kid, playground.macKey, playground.scopes.public_profile]).toEqual([
			'logcat-kid',
			'logcat-key',
			true
		]);
		expect(result.ignored && ignoredText(result.ignored)).toBe(
			`Read the JSON object in the paste and ignored the text before it, “${prefix}”, and after it, “(•••)”.`
		);
	});

	it("signs one URL for Send and curl: ' in client_id goes out as %27, shown in the box and said why", async () => {
		const playground = new Playground();
		playground.clientId = "it's";
		expect(playground.url).toBe(`${__DOMESTIC_BASE_URL__}/account/profile/v1?client_id=it%27s`);
		expect(playground.baseInput.uri).toBe('/account/profile/v1?client_id=it%27s');
		expect(playground.urlNote && urlNoteText(playground.urlNote)).toMatch(
			/^' is sent as %27\. A browser rewrites the URL so/
		);
		const signed = await playground.signed;
		expect(signed?.ok && signed.value.curl).toContain('?client_id=it%27s');

		playground.clientId = 'plain';
		expect(playground.urlNote).toBeNull();
	});

	it('keeps a URL typed by hand as typed, and says what goes out instead', () => {
		const playground = new Playground();
		playground.customUrl = "https://Open.TapAPIs.cn/account/basic-info/v1?client_id=a&state=it's";
		expect(playground.url).toBe(playground.customUrl);
		expect(playground.baseInput.uri).toBe('/account/basic-info/v1?client_id=a&state=it%27s');
		expect(playground.urlNote && urlNoteText(playground.urlNote)).toBe(
			"Goes out as https://open.tapapis.cn/account/basic-info/v1?client_id=a&state=it%27s: the host is sent in lower case, ' is sent as %27. A browser rewrites the URL so before sending it, and the curl command carries the rewritten URL, so Send and curl send the same bytes and the signature covers them."
		);
	});
});

describe('Playground: a credential the page puts in place of the user’s', () => {
	it('signing out keeps the credential to put back; pasting a new one forgets it', () => {
		const playground = new Playground();
		pasteCredential(playground, JSON.stringify({ kid: 'mine', mac_key: 'my-key' }));
		playground.signOut();
		expect([playground.kid, playground.macKey]).toEqual(['', '']);
		expect(playground.replaced && replacedText(playground.replaced, presetLabel)).toMatch(
			/yours was kid mine/
		);
		playground.putBackCredential();
		expect([playground.kid, playground.macKey]).toEqual(['mine', 'my-key']);

		playground.signOut();
		pasteCredential(playground, JSON.stringify({ kid: 'other', mac_key: 'other-key' }));
		expect(playground.replaced).toBeNull();
	});

	it('says which credential it signs with instead of the user’s', () => {
		const playground = new Playground();
		pasteCredential(playground, JSON.stringify({ kid: 'mine', mac_key: 'my-key' }));
		playground.useCredential(
			{ kid: 'given', macKey: 'given-key', scopes: ['basic_info'], clientId: 'c1' },
			'demo-basic'
		);
		expect(playground.replaced && replacedText(playground.replaced, presetLabel)).toBe(
			"Signing with a fresh login of the sandbox's demo account with basic_info only (kid given, client_id c1), in place of yours (kid mine)."
		);
		expect([playground.kid, playground.clientId]).toEqual(['given', 'c1']);
	});
});
