// A small seeded generator (mulberry32): the same seed gives the same sequence. JavaScript, so that
// the bench's plain-Node scripts (tests/bench/triage-log.js) share it with the sandbox server's faults.

/**
 * The next number in [0, 1), each call, from `seed`.
 * @param {number} seed
 * @returns {() => number}
 */
export function seededRandom(seed) {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}
