// The shape of src/ that lets the next engineer find their way: dependencies between the folders of
// src/lib go one way, and where code runs is visible in the tree: the browser's code (and what it
// shares with Node) in src/lib, the Node programs in src/node, the build's code in src/build.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/lib/account-api/operations';
import { TS_WINDOW_SECONDS } from '../../src/lib/account-api/ts-window';

const LIB = resolve(import.meta.dirname, '../../src/lib');
/** The Node programs (relay, sandbox server, triage CLI) and the HTTP plumbing only they use. */
const NODE = resolve(LIB, '../node');
/** What only the build (vite.config.ts) and the programs' bundling run: Vite plugins, bundlers. */
const BUILD = resolve(LIB, '../build');
/** A lookup of an element by its id: getElementById, or a selector that starts with `#`. */
/** An import's module name: `from '…'` (imports and re-exports), `import('…')`, `import '…'`. */
const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;
const BY_ID = /\bgetElementById\s*\(|\bquerySelector(?:All)?\s*\(\s*['"`]#/g;

// src/lib/paraglide is Paraglide's compiled output (git-ignored), not code anyone reads.
const GENERATED = join(LIB, 'paraglide');

function filesUnder(dir: string): string[] {
	if (dir === GENERATED) return [];
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		return statSync(path).isDirectory() ? filesUnder(path) : [path];
	});
}

const sources = filesUnder(LIB).filter((path) => /\.(?:ts|js|svelte)$/.test(path));

const SRC = resolve(LIB, '..');

/** Every source file of src/, routes and workers included. */
const allSources = [
	...filesUnder(SRC).filter((path) => /\.(?:ts|js|svelte)$/.test(path) && !path.startsWith(LIB)),
	...sources
];

/** The files of the Node programs and of the build: everything outside the browser's code. */
const outsideTheBrowser = allSources.filter(
	(path) => path.startsWith(`${NODE}/`) || path.startsWith(`${BUILD}/`)
);
/** The browser's code (and what it shares with Node): src/lib, the routes, the service worker. */
const browserSide = allSources.filter((path) => !outsideTheBrowser.includes(path));

/** The area (top folder of src/lib) of a path, or null outside src/lib and in generated code. */
function areaOf(path: string): string | null {
	if (!path.startsWith(`${LIB}/`) || path.startsWith(`${GENERATED}/`)) return null;
	const parts = relative(LIB, path).split('/');
	return parts.length > 1 ? (parts[0] ?? null) : null;
}

/** The files reachable from `roots` through imports, roots included. */
function reachable(graph: Map<string, string[]>, roots: string[]): Set<string> {
	const seen = new Set<string>();
	const stack = [...roots];
	for (let file = stack.pop(); file !== undefined; file = stack.pop()) {
		if (seen.has(file)) continue;
		seen.add(file);
		stack.push(...(graph.get(file) ?? []));
	}
	return seen;
}

/**
 * The file of src/ an import names, or null for a package, a generated or virtual module, or a
 * file that is not code (CSS, JSON). Resolved as Vite does for this project: `$lib/` is src/lib,
 * a query (`?locale=zh-CN`) names the same file, and the extension may be left out.
 */
function resolveImport(from: string, spec: string): string | null {
	const path = spec.split('?')[0] ?? '';
	const base = path.startsWith('$lib/')
		? join(LIB, path.slice('$lib/'.length))
		: path.startsWith('.')
			? resolve(dirname(from), path)
			: null;
	if (base === null) return null;
	const candidates = [
		base,
		`${base}.ts`,
		`${base}.js`,
		`${base}.svelte.ts`,
		join(base, 'index.ts')
	];
	return candidates.find((candidate) => known.has(candidate)) ?? null;
}
const known = new Set(allSources);

/**
 * file → the files of src/ it imports: static, dynamic (`import()`), re-exports and type-only
 * imports alike. A type-only import is erased at run time, yet it ties the two files as much for
 * the reader, who must read both to understand either (mac/errors.ts reads its codes' types from
 * error-messages.ts, which needs errors.ts to throw them): a circle of types is a circle.
 */
function fileImports(): Map<string, string[]> {
	return new Map(
		allSources.map((file) => [
			file,
			[...readFileSync(file, 'utf8').matchAll(IMPORT)].flatMap(([, spec = '']) => {
				const target = resolveImport(file, spec);
				return target === null ? [] : [target];
			})
		])
	);
}

/**
 * The circles among the files: each group of files that reach each other through imports
 * (Tarjan's strongly connected components), written as one chain of imports that goes round it.
 */
function fileCircles(graph: Map<string, string[]>): string[] {
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const groups: string[][] = [];
	const visit = (file: string) => {
		index.set(file, index.size);
		low.set(file, index.get(file) ?? 0);
		stack.push(file);
		for (const next of graph.get(file) ?? []) {
			if (!index.has(next)) {
				visit(next);
				low.set(file, Math.min(low.get(file) ?? 0, low.get(next) ?? 0));
			} else if (stack.includes(next)) {
				low.set(file, Math.min(low.get(file) ?? 0, index.get(next) ?? 0));
			}
		}
		if (low.get(file) !== index.get(file)) return;
		const group: string[] = [];
		let member: string | undefined;
		do {
			member = stack.pop();
			if (member !== undefined) group.push(member);
		} while (member !== undefined && member !== file);
		if (group.length > 1 || graph.get(file)?.includes(file)) groups.push(group);
	};
	for (const file of graph.keys()) if (!index.has(file)) visit(file);
	return groups.map((group) => {
		// One way round: from the group's first file along imports inside the group, back to it.
		const inGroup = new Set(group);
		const start = [...group].sort()[0] ?? '';
		const path = [start];
		const seen = new Set<string>();
		const walk = (file: string): boolean => {
			for (const next of graph.get(file) ?? []) {
				if (!inGroup.has(next)) continue;
				if (next === start) return true;
				if (seen.has(next)) continue;
				seen.add(next);
				path.push(next);
				if (walk(next)) return true;
				path.pop();
			}
			return false;
		};
		walk(start);
		return [...path, start].map((file) => relative(SRC, file)).join(' → ');
	});
}

/** The top folder of src/lib a path is in, or null for a file directly in src/lib. */
function folderOf(path: string): string | null {
	const parts = relative(LIB, path).split('/');
	if (parts.length > 1) return parts[0] ?? null;
	return existsSync(path) && statSync(path).isDirectory() ? (parts[0] ?? null) : null;
}

/** folder → folders it imports from, each with the files that import. */
function folderImports(): Map<string, Map<string, string[]>> {
	const graph = new Map<string, Map<string, string[]>>();
	for (const file of sources) {
		const from = folderOf(file);
		if (from === null) continue;
		const text = readFileSync(file, 'utf8');
		for (const [, spec = ''] of text.matchAll(IMPORT)) {
			const target = spec.startsWith('$lib/')
				? join(LIB, spec.slice('$lib/'.length))
				: spec.startsWith('.')
					? resolve(dirname(file), spec)
					: null;
			if (target === null || !target.startsWith(LIB)) continue;
			const to = folderOf(target);
			if (to === null || to === from) continue;
			const edges = graph.get(from) ?? new Map<string, string[]>();
			edges.set(to, [...(edges.get(to) ?? []), relative(LIB, file)]);
			graph.set(from, edges);
		}
	}
	return graph;
}

/** Every chain of imports that comes back to the folder it started from. */
function cycles(graph: Map<string, Map<string, string[]>>): string[] {
	const found: string[] = [];
	const walk = (path: string[]) => {
		for (const next of graph.get(path.at(-1) ?? '')?.keys() ?? []) {
			if (next === path[0]) found.push([...path, next].join(' → '));
			else if (!path.includes(next) && next > (path[0] ?? '')) walk([...path, next]);
		}
	};
	for (const folder of graph.keys()) walk([folder]);
	return found;
}

/**
 * The layers below the pages, lowest first: a folder imports only from the layers before its own.
 * The last layer's folders are siblings and import none of each other.
 */
const LAYERS = [['mac'], ['account-api'], ['read'], ['diagnosis'], ['verify', 'triage', 'sandbox']];

/** Every import from one layered folder into another that the order above forbids. */
function againstTheLayers(graph: Map<string, Map<string, string[]>>): string[] {
	const layerOf = new Map(LAYERS.flatMap((folders, layer) => folders.map((f) => [f, layer])));
	const wrong: string[] = [];
	for (const [from, edges] of graph) {
		const own = layerOf.get(from);
		if (own === undefined) continue;
		for (const [to, files] of edges) {
			const theirs = layerOf.get(to);
			if (theirs !== undefined && theirs >= own)
				wrong.push(`${from} → ${to} (${[...new Set(files)].join(', ')})`);
		}
	}
	return wrong;
}

describe('the layout of src/lib', () => {
	it('imports one way: mac → account-api → read → diagnosis → {verify, triage, sandbox}', () => {
		const graph = folderImports();
		// The test sees the imports it checks: read reads with the core, diagnosis reads the reader's types.
		expect(graph.get('read')?.has('mac')).toBe(true);
		expect(graph.get('triage')?.has('diagnosis')).toBe(true);
		expect(againstTheLayers(graph)).toEqual([]);
	});

	it('has no two folders that import each other, directly or through others', () => {
		const graph = folderImports();
		expect(graph.get('playground')?.has('ui')).toBe(true);
		expect(cycles(graph)).toEqual([]);
	});

	it('has no circle of imports among the files of src/', () => {
		const graph = fileImports();
		// The test sees the imports it checks: $lib/, ./ and ../, a .svelte.ts file, a dynamic import.
		const page = graph.get(join(LIB, 'pages/SignPage.svelte')) ?? [];
		expect(page).toContain(join(LIB, 'playground/playground.svelte.ts'));
		expect(page).toContain(join(LIB, 'send/ResponseView.svelte'));
		expect(graph.get(join(LIB, 'mac/index.ts'))).toContain(join(LIB, 'mac/errors.ts'));
		expect(fileCircles(graph)).toEqual([]);
	});

	it('imports by one style: $lib/ from another area or from outside src/lib, ./ within an area', () => {
		// As svelte.dev's playground does: a name says at a glance whether it leaves the area.
		// Where no $lib alias exists, imports stay relative throughout: the relay's handler and what
		// it imports (an edge Worker is bundled by the deployer's tools: relay-edge.test.ts), and the
		// files vite.config.ts imports, with theirs (the config loads before its aliases).
		// /work/codemod-imports.mjs of issue 24 rewrites a tree to this style.
		const graph = fileImports();
		const config = readFileSync(resolve(SRC, '../vite.config.ts'), 'utf8');
		const configImports = [...config.matchAll(IMPORT)]
			.map(([, spec = '']) => resolve(SRC, '..', spec))
			.filter((path) => path.startsWith(`${SRC}/`));
		const relativeOnly = reachable(graph, [join(LIB, 'relay/handler.ts'), ...configImports]);
		expect(relativeOnly).toContain(join(LIB, 'account-api/deployments.ts'));
		const wrong = allSources
			.filter((file) => !file.endsWith('.d.ts'))
			.flatMap((file) =>
				[...readFileSync(file, 'utf8').matchAll(IMPORT)].flatMap(([, spec = '']) => {
					const target = resolveImport(file, spec);
					if (target === null || areaOf(target) === null) return [];
					const [path = '', query] = spec.split('?');
					const written = path.startsWith('$lib/')
						? join(LIB, path.slice('$lib/'.length))
						: resolve(dirname(file), path);
					const area = areaOf(file);
					const near = relative(dirname(file), written);
					const wanted =
						relativeOnly.has(file) || (area !== null && area === areaOf(target))
							? near.startsWith('../')
								? near
								: `./${near}`
							: `$lib/${relative(LIB, written)}`;
					const named = query === undefined ? wanted : `${wanted}?${query}`;
					return named === spec ? [] : [`${relative(SRC, file)}: '${spec}' → '${named}'`];
				})
			);
		expect(wrong).toEqual([]);
	});

	it('keeps the browser apart: src/lib and the routes import nothing from src/node or src/build', () => {
		// The programs and the build import the shared code of src/lib, never the other way round: a
		// page that imported a Node program would pull node:* into the browser's bundle, and code the
		// page needs would be hidden among the programs. (ESLint keeps node:* out of src/lib.)
		const graph = fileImports();
		const into = (from: string[], folder: string) =>
			from.flatMap((file) =>
				(graph.get(file) ?? [])
					.filter((target) => target.startsWith(`${folder}/`))
					.map((target) => `${relative(SRC, file)} → ${relative(SRC, target)}`)
			);
		// The test sees the imports it checks: the programs import src/lib, each other and src/build.
		expect(graph.get(join(NODE, 'relay/cli.ts'))).toContain(join(LIB, 'sandbox/service.ts'));
		expect(graph.get(join(NODE, 'relay/cli.ts'))).toContain(join(NODE, 'sandbox-server/server.ts'));
		expect(graph.get(join(NODE, 'triage/run.js'))).toContain(join(BUILD, 'triage-bundle.js'));
		expect(browserSide).toContain(join(SRC, 'service-worker.ts'));
		expect([...into(browserSide, NODE), ...into(browserSide, BUILD)]).toEqual([]);
		// The build's code runs no program: it bundles them, from their paths.
		expect(
			into(
				outsideTheBrowser.filter((file) => file.startsWith(`${BUILD}/`)),
				NODE
			)
		).toEqual([]);
	});

	it('writes the facts of the service in account-api/ alone: the ts window, the operations', () => {
		const window = new RegExp(`\\b${TS_WINDOW_SECONDS}\\b(?!\\s*(?:px|ns|ms)\\b)`, 'g');
		// Other numbers that are written the same: HTTP's class of redirects.
		const notTheWindow = [/status >= 300 && status < 400/g];
		const paths = Object.values(OPERATIONS).map(({ path }) => path);
		const written = [...sources, ...outsideTheBrowser]
			.filter((file) => !file.startsWith(join(LIB, 'account-api/')))
			.flatMap((file) => {
				let text = readFileSync(file, 'utf8');
				for (const other of notTheWindow) text = text.replace(other, '');
				const where = relative(SRC, file);
				return [
					...[...text.matchAll(window)].map(() => `${where}: ${TS_WINDOW_SECONDS}`),
					...paths.filter((path) => text.includes(path)).map((path) => `${where}: ${path}`)
				];
			});
		// The test sees what it checks: the window and the paths are in their home.
		expect(readFileSync(join(LIB, 'account-api/ts-window.ts'), 'utf8')).toMatch(window);
		expect(written).toEqual([]);
	});

	it('leaves the way to another page to pages/: components ask through a callback prop', () => {
		// A component that imports another page's hand-over and calls goto itself ties its area to
		// that page; given onverify or ontriage, the page decides where the request goes.
		const graph = fileImports();
		const pages = join(LIB, 'pages/');
		const reaching = sources
			.filter((file) => !file.startsWith(pages))
			.flatMap((file) => [
				...(/\bgoto\b[^;]+from '\$app\/navigation'/.test(readFileSync(file, 'utf8'))
					? [`${relative(LIB, file)}: goto`]
					: []),
				...(graph.get(file) ?? [])
					.filter((target) => target.startsWith(pages))
					.map((target) => `${relative(LIB, file)}: ${relative(LIB, target)}`)
			]);
		expect(reaching).toEqual([]);
		// One hand-over helper and one module for the tab's state, both in pages/.
		const named = (pattern: RegExp) =>
			sources.filter((file) => pattern.test(file)).map((file) => relative(LIB, file));
		expect(named(/hand-?off[^/]*$/i)).toEqual(['pages/handoff.ts']);
		expect(named(/[/-]tab(?:-state)?\.svelte\.ts$/)).toEqual(['pages/tab.svelte.ts']);
	});

	it('finds no element by its DOM id: a reference or the state that owns it is passed instead', () => {
		// An id looked up from elsewhere breaks silently when the element's area renames or drops it;
		// an attachment, bind:this or a FocusRequests of the owning state cannot be lost that way.
		const lookups = sources.flatMap((file) =>
			[...readFileSync(file, 'utf8').matchAll(BY_ID)].map(
				([lookup]) => `${relative(LIB, file)}: ${lookup}`
			)
		);
		expect(lookups).toEqual([]);
	});

	it('keeps text out of state: no .svelte.ts module imports the messages', () => {
		// A module that imports the messages is compiled once per language (i18n/locale-variants.ts);
		// state copied per language would be lost on a switch. State holds Texts instead.
		const offending = sources.filter(
			(file) =>
				file.endsWith('.svelte.ts') &&
				/from '\$lib\/paraglide\/messages/.test(readFileSync(file, 'utf8'))
		);
		expect(offending.map((file) => relative(LIB, file))).toEqual([]);
	});
});
