import { describe, expect, it } from 'vitest';
import { diffBaseString } from '$lib/verify/base-string-diff';
import { diagnose } from '$lib/verify/diagnose';
import { VerifyDesk } from '$lib/verify/desk.svelte';
import { VERIFY_EXAMPLES } from '$lib/verify/examples';
import { parseSignedRequest } from '$lib/verify/parse-signed-request';

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

describe('loading an example on the desk', () => {
	const [first, second] = VERIFY_EXAMPLES as [
		(typeof VERIFY_EXAMPLES)[number],
		(typeof VERIFY_EXAMPLES)[number]
	];

	it("keeps the agent's own case and puts it back", () => {
		const desk = new VerifyDesk();
		desk.signedRequest = 'Authorization: MAC id="customer",ts="1",nonce="n",mac="m"';
		desk.macKey = 'their key';
		desk.customUrl = 'https://open.tapapis.cn/account/profile/v1?client_id=x';
		desk.loadExample(first);
		expect(desk.signedRequest).toBe(first.signedRequest);
		expect(desk.macKey).toBe(first.macKey);
		desk.loadExample(second);
		desk.restoreBeforeExample();
		expect(desk.signedRequest).toBe('Authorization: MAC id="customer",ts="1",nonce="n",mac="m"');
		expect(desk.macKey).toBe('their key');
		expect(desk.customUrl).toBe('https://open.tapapis.cn/account/profile/v1?client_id=x');
		expect(desk.example).toBeNull();
		expect(desk.beforeExample).toBeNull();
	});

	it('keeps edits made to an example, since those were typed too', () => {
		const desk = new VerifyDesk();
		desk.loadExample(first);
		expect(desk.beforeExample).toBeNull();
		expect(desk.showingExample).toBe(first);
		desk.macKey = 'edited';
		expect(desk.showingExample).toBeNull();
		desk.loadExample(second);
		desk.restoreBeforeExample();
		expect(desk.signedRequest).toBe(first.signedRequest);
		expect(desk.macKey).toBe('edited');
	});

	it('has nothing to put back when the page was empty', () => {
		const desk = new VerifyDesk();
		desk.loadExample(first);
		desk.restoreBeforeExample();
		expect(desk.beforeExample).toBeNull();
		expect(desk.signedRequest).toBe(first.signedRequest);
	});
});
