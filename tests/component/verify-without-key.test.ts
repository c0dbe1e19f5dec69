// Before the mac_key is given, /verify's verdict panel lists what the request alone shows, and says
// it waits for the key after them, not instead of them.
import { render, screen, within } from '@testing-library/svelte';
import type { Component } from 'svelte';
import { describe, expect, it } from 'vitest';
import VerdictView from '$lib/verify/desk/VerdictView.svelte';
import { VerifyDesk } from '$lib/verify/desk/desk.svelte';
import WithVerifyDesk from './WithVerifyDesk.svelte';
import { until } from './until.svelte';

describe('/verify without the mac_key', () => {
	it('lists the findings, then waits for the key', async () => {
		const desk = new VerifyDesk();
		render(WithVerifyDesk, {
			props: { desk, component: VerdictView as Component<Record<string, unknown>>, props: {} }
		});
		desk.signedRequest =
			"Authorization: MAC id='kid-1',ts='1764000000123',nonce='n1',mac='0123456789abcdef0123456789abcdef01234567'";
		desk.customUrl = 'https://openapi.taptap.com/account/basic-info/v1';
		const list = await until(
			() => screen.queryByRole('list', { name: 'What the request shows without the key' }),
			(found) => found !== null
		);
		if (list === null) throw new Error('no findings');
		const items = within(list)
			.getAllByRole('listitem')
			.map((item) => item.textContent ?? '');
		expect(items[0]).toMatch(/^Header format: not written as the spec shows it/);
		expect(items).toEqual(
			expect.arrayContaining([
				expect.stringMatching(/13 digits: milliseconds/),
				expect.stringMatching(/openapi\.taptap\.com.*older documentation/),
				expect.stringMatching(/no client_id query parameter/),
				expect.stringMatching(/^The mac is 40 hex digits/)
			])
		);
		// The waiting line comes after the findings.
		const waiting = screen.getByText(/^Waiting for .*the mac_key/);
		expect(list.compareDocumentPosition(waiting) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
	});

	it('says the window cannot be checked without a send time, in the list, and names the deployment', async () => {
		const desk = new VerifyDesk();
		render(WithVerifyDesk, {
			props: { desk, component: VerdictView as Component<Record<string, unknown>>, props: {} }
		});
		desk.signedRequest = `Authorization: MAC id="kid-2",ts="${Math.floor(Date.now() / 1000)}",nonce="bm9uY2U=",mac="${'A'.repeat(27)}="`;
		desk.customUrl = 'https://open.tapapis.com/account/profile/v1?client_id=abc';
		const list = await until(
			() => screen.queryByRole('list', { name: 'What the request shows without the key' }),
			(found) => found !== null
		);
		if (list === null) throw new Error('no findings');
		const items = within(list)
			.getAllByRole('listitem')
			.map((item) => item.textContent ?? '');
		expect(items).toEqual([
			expect.stringMatching(
				/^ts and the window: .*cannot be checked\. Ask the customer when they sent it/
			),
			expect.stringMatching(/^The host open\.tapapis\.com is the overseas deployment's/),
			expect.stringMatching(/^The mac has the shape of a Base64 HMAC-SHA-1 \(28 characters/)
		]);
		// The clock's line is in the list, not said twice.
		expect(screen.queryByText(/^Clock:/)).toBeNull();
	});
});
