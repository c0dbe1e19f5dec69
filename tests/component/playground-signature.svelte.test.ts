import { createHmac } from 'node:crypto';
import { flushSync } from 'svelte';
import { describe, expect, it, vi } from 'vitest';
import { Playground } from '$lib/playground/playground.svelte';
import { PRESETS } from '$lib/playground/presets';

const draft = PRESETS.find((preset) => preset.id === 'draft-example');

describe('Playground.signature, as the page shows it', () => {
	it('keeps the last signature on show while the next one is computed', async () => {
		const playground = new Playground(draft);
		const shown: (string | null | undefined)[] = [];
		const stop = $effect.root(() => {
			$effect(() => {
				const signature = playground.signature;
				shown.push(
					signature === undefined ? undefined : signature?.ok ? signature.value.digest.base64 : null
				);
			});
		});
		try {
			flushSync();
			expect(shown).toEqual([undefined]);
			await vi.waitFor(() => expect(shown.at(-1)).toBe('6T3zZzy2Emppni6bzL7kdRxUWL4='));

			playground.macKey = 'another key';
			flushSync();
			expect(shown.at(-1)).toBe('6T3zZzy2Emppni6bzL7kdRxUWL4=');
			const next = createHmac('sha1', 'another key').update(playground.base).digest('base64');
			await vi.waitFor(() => expect(shown.at(-1)).toBe(next));
			expect(shown.slice(1).filter((value) => value === undefined)).toEqual([]);

			playground.kid = '';
			await vi.waitFor(() => expect(shown.at(-1)).toBeNull());
		} finally {
			stop();
		}
	});
});
