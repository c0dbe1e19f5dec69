// `npm ci` runs the prepare script (README, "Run it"): when the messages cannot be compiled, it
// fails and says what failed, rather than leaving a clone without its compiled messages.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

describe('npm ci runs prepare', () => {
	const run = promisify(execFile);
	let dir = '';
	beforeAll(async () => {
		dir = await mkdtemp(join(tmpdir(), 'prepare-'));
	});
	afterAll(() => rm(dir, { recursive: true, force: true }));

	it('and fails, with what failed, when the messages cannot be compiled', async () => {
		// The project's package.json, packages and Paraglide's options (src/build/paraglide.js, which
		// reads svelte.config.js), but no project.inlang to compile.
		for (const file of ['package.json', 'svelte.config.js', 'src/build/paraglide.js']) {
			await mkdir(dirname(join(dir, file)), { recursive: true });
			await writeFile(join(dir, file), await readFile(join(ROOT, file)));
		}
		await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
		const failed = await run('npm', ['run', 'prepare'], { cwd: dir }).then(
			() => null,
			(error: { code: number; stdout: string; stderr: string }) => error
		);
		expect(failed, 'npm run prepare succeeded without messages').not.toBeNull();
		expect(failed?.code).not.toBe(0);
		expect(`${failed?.stdout}${failed?.stderr}`).toMatch(/project\.inlang/);
	});
});
