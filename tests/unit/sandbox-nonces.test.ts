import { describe, expect, it } from 'vitest';
import { NonceMemory } from '$lib/sandbox/nonces';

describe('NonceMemory: the nonces a sandbox refuses to see twice within the window', () => {
	it('remembers a nonce per kid until its window closes, then forgets it', () => {
		const nonces = new NonceMemory();
		nonces.remember('kid-a', 'n1', 1_000, 0);
		expect(nonces.seen('kid-a', 'n1', 1_000)).toBe(true);
		// The same nonce of another kid is another nonce.
		expect(nonces.seen('kid-b', 'n1', 500)).toBe(false);
		// A kid and a nonce are not run together: "kid-a\n" + "n1" is not "kid-a" + "\nn1" of another.
		expect(nonces.seen('kid-a\nn1', '', 500)).toBe(false);
		expect(nonces.seen('kid-a', 'n1', 1_001)).toBe(false);
		// Expired ones are dropped at the next remember.
		nonces.remember('kid-a', 'n2', 3_000, 2_000);
		expect(nonces.size).toBe(1);
	});

	it('a nonce remembered again after it expired lives to its new end', () => {
		const nonces = new NonceMemory();
		nonces.remember('k', 'n', 1_000, 0);
		nonces.remember('k', 'n', 3_000, 2_000);
		// The first entry, expired, is dropped without taking the second with it.
		nonces.remember('k', 'other', 3_500, 2_500);
		expect(nonces.seen('k', 'n', 2_900)).toBe(true);
	});

	it('at its cap forgets the oldest first, so memory stays bounded at any rate', () => {
		const nonces = new NonceMemory(3);
		for (let i = 0; i < 10_000; i++) nonces.remember('k', `n${i}`, 1e12, i);
		expect(nonces.size).toBe(3);
		expect(nonces.seen('k', 'n9999', 0)).toBe(true);
		expect(nonces.seen('k', 'n9997', 0)).toBe(true);
		expect(nonces.seen('k', 'n9996', 0)).toBe(false);
	});

	it('forgets everything on clear', () => {
		const nonces = new NonceMemory();
		nonces.remember('k', 'n', 1_000, 0);
		nonces.clear();
		expect(nonces.seen('k', 'n', 0)).toBe(false);
		expect(nonces.size).toBe(0);
	});
});
