// The /verify boxes at their limits (src/lib/read/input-limits.ts): a paste, a mac_key or a logged
// base string past its limit is kept as typed, marked invalid, and the field says why, in English
// and in Chinese.
import { fireEvent, render, screen } from '@testing-library/svelte';
import type { Component } from 'svelte';
import { describe, expect, it, onTestFinished } from 'vitest';
import { getLocale, overwriteGetLocale } from '$lib/paraglide/runtime';
import BaseStringDiffView from '$lib/verify/desk/BaseStringDiffView.svelte';
import SignedRequestInput from '$lib/verify/desk/SignedRequestInput.svelte';
import { VerifyDesk } from '$lib/verify/desk/desk.svelte';
import WithVerifyDesk from './WithVerifyDesk.svelte';

function setup(component: Component, props: Record<string, unknown> = {}) {
	const desk = new VerifyDesk();
	render(WithVerifyDesk, {
		props: { desk, component: component as Component<Record<string, unknown>>, props }
	});
	return desk;
}

const handedOver: string[] = [];
const ontriage = () => handedOver.push('triage');

describe('the paste box', () => {
	it('keeps a paste over 5 MB, marks it invalid and points to /triage', async () => {
		setup(SignedRequestInput as Component, { ontriage });
		const box = screen.getByRole('textbox', { name: 'Signed request' });
		const paste = `${'2021-04-12 10:02:30 GET https://open.tapapis.cn/p Authorization: MAC id="k"\n'.repeat(70_000)}`;
		await fireEvent.input(box, { target: { value: paste } });
		expect(box).toHaveValue(paste);
		expect(box).toHaveAttribute('aria-invalid', 'true');
		expect(box).toHaveAccessibleDescription(
			/The paste is 5\.4 MB; the box reads up to 5 MB: use \/triage for logs\.$/
		);
		const link = screen.getByRole('link', { name: '/triage' });
		expect(link.getAttribute('href')).toMatch(/\/triage$/);
		await fireEvent.click(link);
		expect(handedOver).toEqual(['triage']);
		// Back within the limit: read, and the message goes.
		await fireEvent.input(box, {
			target: { value: 'Authorization: MAC id="k",ts="1",nonce="n",mac="m"' }
		});
		expect(box).toHaveAttribute('aria-invalid', 'false');
		expect(screen.getByRole('list', { name: 'Understood from the paste' })).toBeInTheDocument();
	});

	it('says it in Chinese on the Chinese page', async () => {
		// The Chinese page: every message the box renders, now and after the input, in Chinese.
		const own = getLocale;
		overwriteGetLocale(() => 'zh-CN');
		onTestFinished(() => overwriteGetLocale(own));
		setup(SignedRequestInput as Component, { ontriage });
		const box = screen.getByRole('textbox', { name: '已签名的请求' });
		await fireEvent.input(box, { target: { value: '字'.repeat(2_000_000) } });
		expect(box).toHaveAttribute('aria-invalid', 'true');
		expect(box).toHaveAccessibleDescription(
			/粘贴的内容有 6\.0 MB，输入框最多读取 5 MB：日志请到 \/triage 批量排查。$/
		);
		expect(box).toHaveValue('字'.repeat(2_000_000));
	});
});

describe('the mac_key and the logged base string', () => {
	it('keeps a mac_key past 1024 characters, and says it is not signed with', async () => {
		const desk = setup(SignedRequestInput as Component, { ontriage });
		const key = screen.getByLabelText('mac_key');
		await fireEvent.input(key, { target: { value: 'k'.repeat(1_025) } });
		expect(key).toHaveAttribute('aria-invalid', 'true');
		expect(key).toHaveAccessibleDescription(
			/The mac_key is 1025 characters long; this page reads keys of up to 1024: paste the key alone\./
		);
		expect(desk.macKey).toBe('k'.repeat(1_025));
	});

	it('keeps a logged base string past 100 KB, and does not compare it', async () => {
		const desk = setup(BaseStringDiffView as Component);
		desk.signedRequest = 'Authorization: MAC id="k",ts="1",nonce="n",mac="m"';
		desk.customUrl = 'https://open.tapapis.cn/p';
		const box = screen.getByLabelText("Base string from the customer's logs");
		await fireEvent.input(box, { target: { value: `1\nn\n${'x'.repeat(100_000)}` } });
		expect(box).toHaveAttribute('aria-invalid', 'true');
		expect(box).toHaveAccessibleDescription(
			/The base string is 101 KB; this box compares up to 100 KB: paste the base string alone, not the log around it\.$/
		);
		expect(desk.diff).toBeNull();
		expect(screen.queryByRole('table')).toBeNull();
	});
});
