import { createHmac } from 'node:crypto';
import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import { Playground } from '$lib/playground/playground.svelte';
import { PRESETS } from '$lib/playground/presets';
import { until } from './until.svelte';

const draft = PRESETS.find((preset) => preset.id === 'draft-example');

describe('Playground.signature, as the page shows it', () => {
	it('keeps the last signature on show while the next one is computed', async () => {
		const playground = new Playground(draft);
		const shown: (string | null | undefined)[] = [];
		/** The signature as the page shows it: undefined (none yet), its base64, or null (none). */
		const onShow = () => {
			const signature = playground.signature;
			return signature === undefined
				? undefined
				: signature?.ok
					? signature.value.digest.base64
					: null;
		};
		const stop = $effect.root(() => {
			$effect(() => {
				shown.push(onShow());
			});
		});
		/** The page's next showing of `expected`, however long the signing takes. */
		const showing = (expected: string | null) => until(onShow, (value) => value === expected);
		try {
			flushSync();
			expect(shown).toEqual([undefined]);
			await showing('6T3zZzy2Emppni6bzL7kdRxUWL4=');
			expect(shown.at(-1)).toBe('6T3zZzy2Emppni6bzL7kdRxUWL4=');

			playground.macKey = 'another key';
			flushSync();
			expect(shown.at(-1)).toBe('6T3zZzy2Emppni6bzL7kdRxUWL4=');
			const next = createHmac('sha1', 'another key').update(playground.base).digest('base64');
			await showing(next);
			expect(shown.at(-1)).toBe(next);
			expect(shown.slice(1).filter((value) => value === undefined)).toEqual([]);

			playground.kid = '';
			await showing(null);
			expect(shown.at(-1)).toBeNull();
		} finally {
			stop();
		}
	});
});
