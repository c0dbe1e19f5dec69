import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { afterIslands, hydrateLater } from '../../src/lib/ui/islands/islands';

// The islands' queue (src/lib/ui/islands/islands.ts) with the clock faked: each island hydrates in
// a task of its own, and what waits for them (the service worker's registration) comes after the
// last one, never between two.

/** An island's element: only its listeners matter here. */
const element = () => new EventTarget() as unknown as HTMLElement;

describe('the islands queue', () => {
	beforeEach(() => {
		vi.useFakeTimers();
	});
	afterEach(() => {
		vi.runAllTimers();
		vi.useRealTimers();
	});

	it('hydrates one island a task, in the order queued, then runs what waits for them', () => {
		const done: string[] = [];
		hydrateLater(element(), () => done.push('first'));
		hydrateLater(element(), () => done.push('second'));
		hydrateLater(element(), () => done.push('third'));
		afterIslands(() => done.push('after'));
		expect(done).toEqual([]);
		vi.advanceTimersToNextTimer();
		expect(done).toEqual(['first']);
		vi.advanceTimersToNextTimer();
		expect(done).toEqual(['first', 'second']);
		vi.advanceTimersToNextTimer();
		expect(done).toEqual(['first', 'second', 'third', 'after']);
	});

	it('waits for an island queued after it was asked', () => {
		const done: string[] = [];
		afterIslands(() => done.push('after'));
		hydrateLater(element(), () => done.push('island'));
		vi.runAllTimers();
		expect(done).toEqual(['island', 'after']);
	});

	it('runs in a task of its own when no island is queued, and not at all once dropped', () => {
		const done: string[] = [];
		afterIslands(() => done.push('kept'));
		const drop = afterIslands(() => done.push('dropped'));
		drop();
		expect(done).toEqual([]);
		vi.runAllTimers();
		expect(done).toEqual(['kept']);
	});

	it('an island used before its turn hydrates at once, and the queue still ends', () => {
		const done: string[] = [];
		const used = element();
		hydrateLater(element(), () => done.push('first'));
		hydrateLater(used, () => done.push('used'));
		afterIslands(() => done.push('after'));
		used.dispatchEvent(new Event('pointerdown'));
		expect(done).toEqual(['used']);
		vi.runAllTimers();
		expect(done).toEqual(['used', 'first', 'after']);
	});

	it('an island that throws does not hold up the rest', () => {
		const done: string[] = [];
		hydrateLater(element(), () => {
			throw new Error('broken island');
		});
		hydrateLater(element(), () => done.push('next'));
		afterIslands(() => done.push('after'));
		expect(() => vi.advanceTimersToNextTimer()).toThrow('broken island');
		vi.runAllTimers();
		expect(done).toEqual(['next', 'after']);
	});
});
