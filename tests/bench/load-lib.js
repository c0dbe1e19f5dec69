// Loads a module of src/lib under plain Node, TypeScript and `$lib` included, through Vite's module
// runner: the benches time the code the pages and the CLI run, not a copy of it.
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

export const LIB = fileURLToPath(new URL('../../src/lib/', import.meta.url));

/**
 * @param {string} path relative to src/lib
 * @returns {Promise<any>}
 */
export async function loadLib(path) {
	const { module } = await runnerImport(`${LIB}${path}`, {
		configFile: false,
		logLevel: 'silent',
		resolve: { alias: { $lib: LIB.replace(/\/$/, '') } }
	});
	return module;
}
