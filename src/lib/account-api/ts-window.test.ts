import { describe, expect, it } from 'vitest';
import { TS_WINDOW_SECONDS } from './ts-window';

describe('the ts window', () => {
	it('is the assumption of five minutes either way, since the spec does not state it (§5.8)', () => {
		// Spec §5.8: "Allowed clock difference for ts, nonce reuse rules, and how to request the
		// server's time: not shown." The pages and the triage say the window is an assumption.
		expect(TS_WINDOW_SECONDS).toBe(300);
	});
});
