// The README is what a new user reads first: what the app is, how to run it and pass its tests, and
// a map of the folders, short enough to read in ten minutes; the reference lives in docs/.
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
/** The README's length, in lines, that still reads in ten minutes. */
const MOST_LINES = 250;

let readme = '';
let scripts: Record<string, string> = {};
beforeAll(async () => {
	readme = await readFile(join(ROOT, 'README.md'), 'utf8');
	scripts = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')).scripts;
});

/** The text of a `## heading` section, up to the next heading of that level. */
function section(markdown: string, heading: string): string {
	const start = markdown.indexOf(`\n## ${heading}\n`);
	if (start < 0) return '';
	const end = markdown.indexOf('\n## ', start + 1);
	return markdown.slice(start, end < 0 ? undefined : end);
}

/** Every page's path, from the routes: `src/routes/(en)/triage/+page.svelte` is `/triage`. */
async function pages(): Promise<string[]> {
	const routes = join(ROOT, 'src/routes');
	const files = await readdir(routes, { recursive: true });
	// One route tree serves both languages: each page is at its path and under /zh-CN/ (the Chinese
	// home page with its slash, as the site links it).
	return files
		.filter((file) => file.endsWith(`${sep}+page.svelte`) || file === '+page.svelte')
		.flatMap((file) => {
			const segments = dirname(file)
				.split(sep)
				.filter((segment) => segment !== '.' && !/^\(.*\)$/.test(segment));
			const path = `/${segments.join('/')}`;
			return [path, path === '/' ? '/zh-CN/' : `/zh-CN${path}`];
		})
		.sort();
}

describe('the README', () => {
	it(`reads in ten minutes: at most ${MOST_LINES} lines`, () => {
		expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(MOST_LINES);
	});

	it('leads with what the app is, then how to run it, pass its tests and find its folders', async () => {
		const headings = [...readme.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
		expect(headings.slice(0, 5)).toEqual([
			'简体中文',
			'What it is',
			'Run it',
			'Pass the tests',
			'Map of the folders'
		]);
		expect(section(readme, 'Run it')).toContain('npm ci && npm run dev');
		expect(section(readme, 'Pass the tests')).toContain('npm ci && npm test');
		expect(scripts.dev).toBe('vite dev');
		// .ci/run, what CI runs, ends with the README's test command.
		expect(await readFile(join(ROOT, '.ci/run'), 'utf8')).toMatch(/\nnpm test\n?$/);
	});

	it('says what prepare does, as package.json has it', () => {
		expect(scripts.prepare).toBe('npm run i18n && svelte-kit sync');
		const run = section(readme, 'Run it');
		expect(run).toMatch(/`prepare` script, which compiles the messages/);
		expect(run).toContain('`npm run i18n`');
		expect(run).toContain('`svelte-kit sync`');
	});

	it('links to files that exist, docs/ included', async () => {
		const links = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((match) => match[1]!);
		const local = links.filter((link) => !/^[a-z]+:/.test(link));
		expect(local.filter((link) => link.startsWith('docs/')).length).toBeGreaterThanOrEqual(8);
		const missing = local.filter((link) => !existsSync(join(ROOT, link)));
		expect(missing).toEqual([]);
	});

	it('links every file of docs/', async () => {
		const docs = (await readdir(join(ROOT, 'docs'))).filter((file) => file.endsWith('.md'));
		for (const file of docs) expect(readme, file).toContain(`](docs/${file})`);
	});

	it('names every page in its Languages section, in both languages', async () => {
		const languages = section(readme, 'Languages');
		const paths = await pages();
		expect(paths).toContain('/triage');
		expect(paths.length).toBeGreaterThanOrEqual(8);
		for (const path of paths) expect(languages, path).toContain(`\`${path}\``);
	});

	it('links the table of accessible names the end-to-end suite finds the Chinese pages by', async () => {
		const testing = await readFile(join(ROOT, 'docs/testing.md'), 'utf8');
		expect(testing).toMatch(/^## Chinese accessible names$/m);
		expect(testing).toMatch(/^\| Role +\| Chinese name +\| English name +\|$/m);
		expect(readme).toContain('](docs/testing.md)');
	});
});
