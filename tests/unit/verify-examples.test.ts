import { describe, expect, it } from 'vitest';
import { diffBaseString } from '$lib/diagnosis/base-string-diff';
import { diagnose } from '$lib/diagnosis/diagnose';
import { VerifyDesk } from '$lib/verify/desk/desk.svelte';
import { VERIFY_EXAMPLES } from '$lib/verify/desk/examples';
import { parseSignedRequest } from '$lib/read/parse-signed-request';

describe('the verify page examples', () => {
	it.each(VERIFY_EXAMPLES.map((example) => [example.label, example] as const))(
		'%s: the diagnosis says what the label promises',
		async (_label, example) => {
			const request = parseSignedRequest(example.signedRequest);
			const diagnosis = await diagnose({
				authorization: request.authorization,
				method: request.method,
				url: example.url ?? request.url ?? '',
				macKey: example.macKey
			});
			if (example.expected === 'match') {
				expect(diagnosis.verdict).toBe('match');
			} else {
				expect(diagnosis.verdict).toBe('explained');
				const first = diagnosis.explanations[0]!;
				expect(first.mistakes.map((mistake) => mistake.id).sort()).toEqual(
					[...example.expected].sort()
				);
			}
		}
	);

	it('the logged base string differs from the expected one on the host line only', () => {
		const example = VERIFY_EXAMPLES.find((candidate) => candidate.customerBase !== undefined)!;
		const desk = new VerifyDesk();
		desk.loadExample(example);
		const diff = diffBaseString(desk.expectedBase, example.customerBase!);
		expect(diff.lines.filter((line) => !line.same).map((line) => line.name)).toEqual(['host']);
	});
});

describe('loading an example or a hand-over on the desk', () => {
	const [first, second] = VERIFY_EXAMPLES as [
		(typeof VERIFY_EXAMPLES)[number],
		(typeof VERIFY_EXAMPLES)[number]
	];
	const customerCase = 'Authorization: MAC id="customer",ts="1",nonce="n",mac="m"';

	function deskWithCustomerCase() {
		const desk = new VerifyDesk();
		desk.signedRequest = customerCase;
		desk.macKey = 'their key';
		desk.customUrl = 'https://open.tapapis.cn/account/profile/v1?client_id=x';
		return desk;
	}

	it("keeps the agent's own case while they browse examples, and puts it back", () => {
		const desk = deskWithCustomerCase();
		desk.loadExample(first);
		expect(desk.signedRequest).toBe(first.signedRequest);
		expect(desk.macKey).toBe(first.macKey);
		desk.loadExample(second);
		expect(desk.replaced).toHaveLength(1);
		desk.putBack();
		expect(desk.signedRequest).toBe(customerCase);
		expect(desk.macKey).toBe('their key');
		expect(desk.customUrl).toBe('https://open.tapapis.cn/account/profile/v1?client_id=x');
		expect(desk.example).toBeNull();
		expect(desk.replaced).toHaveLength(0);
	});

	it('keeps edits made to an example too, one step back at a time', () => {
		const desk = deskWithCustomerCase();
		desk.loadExample(first);
		expect(desk.showingExample).toBe(first);
		desk.macKey = 'edited';
		expect(desk.showingExample).toBeNull();
		desk.loadExample(second);
		desk.putBack();
		expect(desk.signedRequest).toBe(first.signedRequest);
		expect(desk.macKey).toBe('edited');
		desk.putBack();
		expect(desk.signedRequest).toBe(customerCase);
		expect(desk.macKey).toBe('their key');
	});

	it('has nothing to put back when the desk was empty', () => {
		const desk = new VerifyDesk();
		desk.loadExample(first);
		expect(desk.replaced).toHaveLength(0);
		desk.putBack();
		expect(desk.signedRequest).toBe(first.signedRequest);
	});

	it('takes a request handed over from the signing page, keeping what was there', () => {
		const desk = deskWithCustomerCase();
		desk.receive({ signedRequest: "curl 'https://example.com/'", macKey: 'the signer key' });
		expect(desk.signedRequest).toBe("curl 'https://example.com/'");
		expect(desk.macKey).toBe('the signer key');
		expect(desk.customUrl).toBeNull();
		desk.putBack();
		expect(desk.signedRequest).toBe(customerCase);
	});

	it('loads a share link once per tab, so coming back to the page keeps later edits', () => {
		const sharer = deskWithCustomerCase();
		const link = sharer.shareLink();
		expect(link?.kind).toBe('link');
		const fragment = link?.kind === 'link' ? link.fragment : '';
		const desk = new VerifyDesk();
		desk.macKey = 'typed key';
		desk.loadFragment(`#${fragment}`);
		expect(desk.signedRequest).toContain('ts="1"');
		expect(desk.macKey).toBe('typed key');
		desk.signedRequest = 'edited after opening the link';
		desk.loadFragment(`#${fragment}`);
		expect(desk.signedRequest).toBe('edited after opening the link');
	});
});
