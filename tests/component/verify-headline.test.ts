// The verdict panel of /verify says the service's answer first: a right signature the service would
// refuse is "Signature right, refused", in its own colour, with why; and a logged base string that
// signs to the customer's mac says the key is right and names the line they signed wrongly.
import { render, screen } from '@testing-library/svelte';
import { createHmac } from 'node:crypto';
import type { Component } from 'svelte';
import { describe, expect, it, onTestFinished } from 'vitest';
import { getLocale, overwriteGetLocale } from '$lib/paraglide/runtime';
import VerdictView from '$lib/verify/desk/VerdictView.svelte';
import { VerifyDesk } from '$lib/verify/desk/desk.svelte';
import WithVerifyDesk from './WithVerifyDesk.svelte';
import { until } from './until.svelte';

const KEY = 'headline-key-Zq9';
const URL_ = 'https://open.tapapis.cn/account/basic-info/v1?client_id=app1';
const BASE = (ts: string, nonce: string) =>
	`${ts}\n${nonce}\nGET\n/account/basic-info/v1?client_id=app1\nopen.tapapis.cn\n443\n\n`;
const mac = (text: string) => createHmac('sha1', KEY).update(text, 'utf8').digest('base64');

/** The verdict's live region: the first status of the panel (the macs' outputs are statuses too). */
function verdictStatus(): HTMLElement {
	const [verdict] = screen.getAllByRole('status');
	if (verdict === undefined) throw new Error('no verdict status');
	return verdict;
}

function setup(ts: string, nonce: string, signed: string): VerifyDesk {
	const desk = new VerifyDesk();
	render(WithVerifyDesk, {
		props: { desk, component: VerdictView as Component<Record<string, unknown>>, props: {} }
	});
	desk.signedRequest = `Authorization: MAC id="kid-1",ts="${ts}",nonce="${nonce}",mac="${mac(signed)}"`;
	desk.customUrl = URL_;
	desk.macKey = KEY;
	return desk;
}

describe('the headline on /verify', () => {
	it('says a ts in milliseconds is refused though the signature is right', async () => {
		const ts = '1764000000123';
		const desk = setup(ts, 'bm9uY2U=', BASE(ts, 'bm9uY2U='));
		await until(
			() => desk.serviceVerdict,
			(verdict) => verdict === 'refused'
		);
		const status = verdictStatus();
		expect(status).toHaveClass('refused');
		expect(status).not.toHaveTextContent(/^Match/);
		expect(status).toHaveTextContent(
			`Signature right, refused Signature right, but the service answers invalid_time: ts ${ts} is in milliseconds; the spec's ts is whole seconds.`
		);
	});

	it('says so in Chinese on the Chinese page', async () => {
		const own = getLocale;
		overwriteGetLocale(() => 'zh-CN');
		onTestFinished(() => overwriteGetLocale(own));
		const ts = '1764000000123';
		const desk = setup(ts, 'bm9uY2U=', BASE(ts, 'bm9uY2U='));
		await until(
			() => desk.serviceVerdict,
			(verdict) => verdict === 'refused'
		);
		expect(verdictStatus()).toHaveTextContent(
			`签名正确，但会被拒绝 签名正确，但服务会返回 invalid_time：ts ${ts} 以毫秒为单位；规范中的 ts 是整秒数。`
		);
	});

	it('a right signature with nothing against it is a match', async () => {
		const desk = setup('1764000000', 'bm9uY2U=', BASE('1764000000', 'bm9uY2U='));
		await until(
			() => desk.serviceVerdict,
			(verdict) => verdict !== null
		);
		expect(desk.serviceVerdict).toBe('match');
		expect(verdictStatus()).toHaveClass('match');
	});

	it('takes the logged base string as evidence: the key is right, line 2 is the mistake', async () => {
		const ts = '1764000000';
		const signed = BASE(ts, 'made-again');
		const desk = setup(ts, 'nonce-sent', signed);
		desk.customerBase = signed;
		// Checked first once it is given: signed with the key, it gives their mac.
		await until(
			() => (desk.evidence === null ? null : desk.shownDiagnosis),
			(shown) => JSON.stringify(shown?.message ?? null).includes('diagnosis_logged_key_right')
		);
		expect(desk.evidence?.keyRight).toBe(true);
		const status = verdictStatus();
		expect(status).toHaveClass('mismatch');
		expect(status).toHaveTextContent(/the key is right, and so is the digest step/);
		expect(status).toHaveTextContent(
			/they signed the nonce "made-again", which is not the nonce sent, "nonce-sent"/
		);
	});
});
