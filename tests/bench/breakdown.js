// What a page's weight is made of: for each script and stylesheet it loads, the source modules its
// bytes come from, read from the build's source maps (a build with `--sourcemap hidden`: the maps
// are written beside the files, and the files themselves, which name no map, are as without them).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

const UNMAPPED = '(unmapped)';
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * The segments of one line of a source map's `mappings`: generated column and source index (the
 * other fields are read past), with the source index carried over from the previous segment.
 * @param {string} mappings
 * @returns {{ column: number, source: number }[][]} per generated line
 */
export function decodeMappings(mappings) {
	/** @type {{ column: number, source: number }[][]} */
	const lines = [];
	let source = 0;
	for (const line of mappings.split(';')) {
		/** @type {{ column: number, source: number }[]} */
		const segments = [];
		let column = 0;
		for (const segment of line.split(',')) {
			if (segment === '') continue;
			/** @type {number[]} */
			const fields = [];
			let value = 0;
			let shift = 0;
			for (const char of segment) {
				const digit = BASE64.indexOf(char);
				value += (digit & 31) << shift;
				if (digit & 32) {
					shift += 5;
				} else {
					fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
					value = 0;
					shift = 0;
				}
			}
			column += fields[0] ?? 0;
			// A segment of one field maps generated code to no source.
			if (fields.length === 1) segments.push({ column, source: -1 });
			else {
				source += fields[1] ?? 0;
				segments.push({ column, source });
			}
		}
		lines.push(segments);
	}
	return lines;
}

/**
 * Bytes of `code` per source, by the map: each segment's generated text belongs to its source up
 * to the next segment. Text that no segment maps is counted with the next mapped source when that
 * is a component (Svelte hoists its templates above its code, unmapped), else as '(unmapped)'
 * (bundler glue).
 * @param {string} code
 * @param {{ sources: string[], mappings: string }} map
 * @returns {Map<string, number>}
 */
export function bytesBySource(code, map) {
	/** @type {Map<string, number>} */
	const bytes = new Map();
	let unmapped = 0;
	const add = (/** @type {number} */ source, /** @type {number} */ count) => {
		if (source < 0) {
			unmapped += count;
			return;
		}
		const name = map.sources[source] ?? '(unknown)';
		const carried = name.endsWith('.svelte') ? unmapped : 0;
		bytes.set(name, (bytes.get(name) ?? 0) + count + carried);
		if (carried === 0 && unmapped > 0) bytes.set(UNMAPPED, (bytes.get(UNMAPPED) ?? 0) + unmapped);
		unmapped = 0;
	};
	const lines = code.split('\n');
	const mapped = decodeMappings(map.mappings);
	for (const [index, line] of lines.entries()) {
		const segments = mapped[index] ?? [];
		const length = Buffer.byteLength(line) + (index < lines.length - 1 ? 1 : 0);
		let previous = 0;
		let source = -1;
		for (const segment of segments) {
			add(source, Buffer.byteLength(line.slice(previous, segment.column)));
			previous = segment.column;
			source = segment.source;
		}
		add(source, length - Buffer.byteLength(line.slice(0, previous)));
	}
	if (unmapped > 0) bytes.set(UNMAPPED, (bytes.get(UNMAPPED) ?? 0) + unmapped);
	return bytes;
}

/**
 * A source's path as a person reads it: the project's files from src/ on, packages as
 * `package/path`, Kit's generated files from generated/ on; a variant's id such as
 * `X.locale~zh-CN.svelte` kept.
 * @param {string} source as the map names it (relative to the folder the map was written in)
 */
function sourceName(source) {
	if (source.startsWith('(')) return source;
	const nodeModules = source.lastIndexOf('node_modules/');
	if (nodeModules >= 0) return source.slice(nodeModules + 'node_modules/'.length);
	return source.replace(/^(\.\.\/)+/, '');
}

/**
 * @typedef {{ source: string, bytes: number, gzip: number }} SourceShare
 * @typedef {import('./measure.js').WeighedFile & { sources: SourceShare[] | null }} FileBreakdown
 */

/**
 * Each weighed file with the sources its bytes come from, largest first; a source's gzip figure is
 * the file's gzip size shared out by raw bytes (an estimate: sources compress unevenly).
 * @param {import('./measure.js').Weight} weight
 * @param {string} buildDir the served folder, with the maps beside the files
 * @returns {Promise<FileBreakdown[]>}
 */
export async function breakdown(weight, buildDir) {
	/** @type {FileBreakdown[]} */
	const files = [];
	for (const file of weight.files) {
		const path = join(buildDir, new URL(file.url, 'http://x').pathname);
		let map;
		try {
			map = JSON.parse(await readFile(`${path}.map`, 'utf8'));
		} catch {
			files.push({ ...file, sources: null });
			continue;
		}
		const code = await readFile(path, 'utf8');
		/** @type {Map<string, number>} */
		const named = new Map();
		for (const [source, bytes] of bytesBySource(code, map)) {
			const name = sourceName(source);
			named.set(name, (named.get(name) ?? 0) + bytes);
		}
		const total = [...named.values()].reduce((sum, bytes) => sum + bytes, 0) || 1;
		files.push({
			...file,
			sources: [...named]
				.map(([source, bytes]) => ({
					source,
					bytes,
					gzip: Math.round((file.gzip * bytes) / total)
				}))
				.sort((a, b) => b.bytes - a.bytes)
		});
	}
	return files.sort((a, b) => b.gzip - a.gzip);
}

/**
 * Every source's estimated gzip weight summed over the files (a source split across files counts
 * in each), largest first.
 * @param {FileBreakdown[]} files
 * @returns {SourceShare[]}
 */
export function totalsBySource(files) {
	/** @type {Map<string, SourceShare>} */
	const totals = new Map();
	for (const file of files)
		for (const share of file.sources ?? []) {
			const total = totals.get(share.source) ?? { source: share.source, bytes: 0, gzip: 0 };
			total.bytes += share.bytes;
			total.gzip += share.gzip;
			totals.set(share.source, total);
		}
	return [...totals.values()].sort((a, b) => b.gzip - a.gzip);
}
