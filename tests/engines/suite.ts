// One engine's part of the suite: one browser session, the paths of paths.ts run in it in order,
// each followed by a check that no page it visited logged an error or threw one uncaught.
import { afterAll, afterEach, beforeAll, describe, expect, inject, test } from 'vitest';
import type { Engine, Tab } from './driver';
import { missingLine, type EngineId, type Found } from './engines';
import { PATHS } from './paths';

/** Starting a browser on a loaded 2-core machine takes a while: minutes, before it is called stuck. */
const LAUNCH_MS = 240_000;
const PATH_MS = 240_000;

export function engineSuite<T>(
	id: EngineId,
	found: Found<T>,
	launch: (paths: T, site: ReturnType<typeof inject<'site'>>) => Promise<Engine>
): void {
	if (!found.found) {
		if (process.env.CI) {
			test(`${id}: the engine is installed`, () => {
				throw new Error(missingLine(id, found.missing));
			});
		} else {
			console.log(missingLine(id, found.missing));
			test.skip(`${id}: ${missingLine(id, found.missing)}`, () => {});
		}
		return;
	}
	describe(id, () => {
		let engine: Engine | undefined;
		let tab: Tab | undefined;
		let started = 0;
		beforeAll(async () => {
			started = Date.now();
			engine = await launch(found.paths, inject('site'));
			tab = await engine.newTab();
			console.log(
				`${id}: ${engine.name} started in ${Math.round((Date.now() - started) / 1000)} s`
			);
		}, LAUNCH_MS);
		afterAll(async () => {
			await engine?.close();
			if (started) console.log(`${id}: ${Math.round((Date.now() - started) / 1000)} s in all`);
		}, LAUNCH_MS);
		afterEach(async () => {
			if (tab) expect(await tab.errors(), 'console errors and uncaught errors').toEqual([]);
		});
		for (const path of PATHS) {
			test(
				path.name,
				async () => {
					if (!engine || !tab) throw new Error(`${id} did not start`);
					await path.run({ engine, tab, relay: inject('site').relay });
				},
				PATH_MS
			);
		}
	});
}
