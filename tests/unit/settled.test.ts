import { describe, expect, it } from 'vitest';
import { Settled } from '$lib/ui/settled.svelte';

function deferred<T>() {
	let resolve: (value: T) => void = () => {};
	const promise = new Promise<T>((done) => (resolve = done));
	return { promise, resolve };
}

describe('Settled', () => {
	it('holds the value of the latest promise, and the one before until it resolves', async () => {
		const first = deferred<number>();
		const second = deferred<number>();
		let current = first.promise;
		const settled = new Settled(() => current);
		expect(settled.current).toBeUndefined();
		first.resolve(1);
		await first.promise;
		expect(settled.current).toBe(1);

		current = second.promise;
		expect(settled.current).toBe(1);
		second.resolve(2);
		await second.promise;
		expect(settled.current).toBe(2);
	});

	it('ignores a promise that a newer one replaced, whenever it resolves', async () => {
		const older = deferred<string>();
		const newer = deferred<string>();
		let current = older.promise;
		const settled = new Settled(() => current);
		expect(settled.current).toBeUndefined();
		current = newer.promise;
		expect(settled.current).toBeUndefined();
		newer.resolve('newer');
		await newer.promise;
		older.resolve('older');
		await older.promise;
		expect(settled.current).toBe('newer');
	});
});
