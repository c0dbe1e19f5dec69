// The shape of src/lib that lets the next engineer find their way: dependencies between its folders
// go one way, no folder is a heap of files, no module is too long to read.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const LIB = resolve(import.meta.dirname, '../../src/lib');
const MAX_FILES_PER_FOLDER = 16;
const MAX_LINES = 500;
/** A lookup of an element by its id: getElementById, or a selector that starts with `#`. */
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
const folders = readdirSync(LIB).filter(
	(name) => statSync(join(LIB, name)).isDirectory() && join(LIB, name) !== GENERATED
);

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
		for (const [, spec = ''] of text.matchAll(
			/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g
		)) {
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

	it(`has no folder with more than ${MAX_FILES_PER_FOLDER} files directly in it`, () => {
		const crowded = folders
			.map((folder) => {
				const files = readdirSync(join(LIB, folder)).filter((name) =>
					statSync(join(LIB, folder, name)).isFile()
				);
				return `${folder}: ${files.length}`;
			})
			.filter((entry) => Number(entry.split(': ')[1]) > MAX_FILES_PER_FOLDER);
		expect(crowded).toEqual([]);
	});

	it(`has no module over ${MAX_LINES} lines`, () => {
		const long = sources
			.map((file) => `${relative(LIB, file)}: ${readFileSync(file, 'utf8').split('\n').length}`)
			.filter((entry) => Number(entry.split(': ')[1]) > MAX_LINES);
		expect(long).toEqual([]);
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
