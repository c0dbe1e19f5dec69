import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import CodeSnippets from '$lib/snippets/CodeSnippets.svelte';

const PROPS = {
	url: 'https://open.tapapis.cn/account/profile/v1?client_id=demo-client-0001',
	kid: 'demo-kid-profile-4f1c',
	ts: '1717171717',
	nonce: 'q1w2e3r4t5y6u7i8o9p0aA==',
	space: false,
	macKey: 'demo-mac-key-Q9sLx2'
};

const LABELS = ['Node.js', 'Python', 'Java', 'Go', 'PHP', 'C#', 'Shell (openssl)'];

function setup(props: Partial<typeof PROPS> = {}) {
	render(CodeSnippets, { props: { ...PROPS, ...props } });
	return userEvent.setup();
}

/** The code shown, found by the name of its scrolling region ("Node.js code", "Go code", …). */
const codeRegion = () => screen.getByRole('region', { name: / code$/ });
const code = () => codeRegion().textContent ?? '';

afterEach(() => vi.restoreAllMocks());

describe('CodeSnippets', () => {
	it('has one tab per language, the first selected, and a panel labelled by it', () => {
		setup();
		const tabs = screen.getAllByRole('tab');
		expect(tabs.map((tab) => tab.textContent)).toEqual(LABELS);
		expect(screen.getByRole('tab', { name: 'Node.js' })).toHaveAttribute('aria-selected', 'true');
		expect(screen.getByRole('tabpanel', { name: 'Node.js' })).toContainElement(
			screen.getByRole('region', { name: 'Node.js code' })
		);
		expect(code()).toContain("from 'node:crypto'");
		expect(screen.getByText("MAC_KEY='…' node sign.mjs")).toBeInTheDocument();
	});

	it('switches language with a click', async () => {
		const user = setup();
		await user.click(screen.getByRole('tab', { name: 'Go' }));
		expect(screen.getByRole('tab', { name: 'Go' })).toHaveAttribute('aria-selected', 'true');
		expect(screen.getByRole('tab', { name: 'Node.js' })).toHaveAttribute('aria-selected', 'false');
		expect(code()).toContain('package main');
		expect(screen.getByRole('button', { name: 'Copy Go code' })).toBeInTheDocument();
		expect(screen.getByRole('button', { name: 'Download main.go' })).toBeInTheDocument();
	});

	it('moves between tabs with the arrow keys, Home and End, wrapping around', async () => {
		const user = setup();
		await user.click(screen.getByRole('tab', { name: 'Node.js' }));
		await user.keyboard('{ArrowRight}');
		expect(screen.getByRole('tab', { name: 'Python' })).toHaveFocus();
		expect(screen.getByRole('tab', { name: 'Python' })).toHaveAttribute('aria-selected', 'true');
		expect(code()).toContain('import hmac');

		await user.keyboard('{ArrowLeft}{ArrowLeft}');
		expect(screen.getByRole('tab', { name: 'Shell (openssl)' })).toHaveFocus();
		expect(code()).toContain('openssl dgst -sha1 -hmac');

		await user.keyboard('{Home}');
		expect(screen.getByRole('tab', { name: 'Node.js' })).toHaveFocus();
		await user.keyboard('{End}');
		expect(screen.getByRole('tab', { name: 'Shell (openssl)' })).toHaveAttribute(
			'aria-selected',
			'true'
		);
		// Only the selected tab is in the Tab order.
		expect(screen.getAllByRole('tab').filter((tab) => tab.tabIndex === 0)).toHaveLength(1);
	});

	it('puts mac_key in the code only when asked, and reads MAC_KEY otherwise', async () => {
		const user = setup();
		for (const label of LABELS) {
			await user.click(screen.getByRole('tab', { name: label }));
			expect(code()).not.toContain(PROPS.macKey);
			expect(code()).toContain('MAC_KEY');
		}
		await user.click(screen.getByRole('checkbox', { name: 'Inline mac_key in the code' }));
		for (const label of LABELS) {
			await user.click(screen.getByRole('tab', { name: label }));
			expect(code()).toContain(PROPS.macKey);
			expect(code()).not.toContain('MAC_KEY');
		}
		expect(screen.getByText(/mac_key is in this code/)).toBeInTheDocument();
	});

	it("writes the page's ts and nonce only in fixed mode", async () => {
		const user = setup();
		await user.click(screen.getByRole('tab', { name: 'Python' }));
		expect(code()).not.toContain(PROPS.ts);
		expect(code()).not.toContain(PROPS.nonce);
		expect(code()).toContain('secrets.token_bytes(16)');

		await user.click(
			screen.getByRole('checkbox', { name: 'Use this ts and nonce (to compare with this page)' })
		);
		expect(code()).toContain(`ts = '${PROPS.ts}'`);
		expect(code()).toContain(`nonce = '${PROPS.nonce}'`);
		expect(code()).not.toContain('secrets.token_bytes');
	});

	it('follows the header style and the URL it is given', () => {
		setup({ space: true, url: 'https://Open.TapAPIs.com:8443/x?a=%20' });
		expect(code()).toContain('", ts="');
		expect(code()).toContain("const url = 'https://open.tapapis.com:8443/x?a=%20';");
	});

	it('explains instead of showing code when the URL cannot be signed', () => {
		setup({ url: 'ftp://example.com/x' });
		expect(screen.queryByRole('region', { name: / code$/ })).toBeNull();
		expect(screen.getByRole('status')).toHaveTextContent(
			/No code yet: Only https:\/\/ and http:\/\//
		);
	});

	it('downloads the code as the language file through a Blob URL, then revokes it', async () => {
		// jsdom has no Blob URLs: stand in for them, and put back what was there.
		const createObjectURL = vi.fn((blob: Blob) => (blob.size > 0 ? 'blob:snippet' : 'blob:empty'));
		const revokeObjectURL = vi.fn();
		const original = { createObjectURL: URL.createObjectURL, revokeObjectURL: URL.revokeObjectURL };
		Object.assign(URL, { createObjectURL, revokeObjectURL });
		onTestFinished(() => {
			Object.assign(URL, original);
		});
		const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});

		const user = setup();
		await user.click(screen.getByRole('tab', { name: 'Java' }));
		// The wait before the URL is revoked runs on the test's clock: run out, not waited for.
		vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
		onTestFinished(() => {
			vi.useRealTimers();
		});
		screen.getByRole('button', { name: 'Download Main.java' }).click();

		expect(click).toHaveBeenCalledOnce();
		const link = click.mock.contexts[0] as HTMLAnchorElement;
		expect(link.download).toBe('Main.java');
		expect(link.href).toBe('blob:snippet');
		// Not at once: revoking the URL could cancel the download the click has just started.
		expect(revokeObjectURL).not.toHaveBeenCalled();
		vi.runAllTimers();
		expect(revokeObjectURL).toHaveBeenCalledWith('blob:snippet');
		const blob = createObjectURL.mock.calls[0]?.[0];
		expect(await blob?.text()).toBe(code());
	});

	it('copies the code shown', async () => {
		const user = setup();
		await user.click(screen.getByRole('tab', { name: 'PHP' }));
		await user.click(screen.getByRole('button', { name: 'Copy PHP code' }));
		expect(await navigator.clipboard.readText()).toBe(code());
	});
});
