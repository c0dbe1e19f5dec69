// The sandbox server as one self-contained file, sandbox-server.mjs: bundled by Vite (Rolldown)
// from src/node/sandbox-server/run.ts with everything it imports, so that plain `node
// sandbox-server.mjs` runs it from an empty directory. The site's build ships it (the plugin
// below), and `npm run sandbox` builds and runs it (src/node/sandbox-server/start.js). JavaScript,
// not TypeScript: vite.config.ts and start.js load it, the latter under plain Node 20, which cannot
// load TypeScript.
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const LIB = fileURLToPath(new URL('../lib', import.meta.url));
const ENTRY = fileURLToPath(new URL('../node/sandbox-server/run.ts', import.meta.url));
export const FILE_NAME = 'sandbox-server.mjs';

/**
 * The bundle's code. The deployments' base URLs are not baked in: the server answers for whatever
 * host it is called by.
 * @returns {Promise<string>}
 */
export async function bundleSandboxServer() {
	const output = await build({
		configFile: false,
		logLevel: 'silent',
		resolve: { alias: { $lib: LIB } },
		// Everything in the one file: it must run where no node_modules is.
		ssr: { noExternal: true, target: 'node' },
		build: {
			ssr: ENTRY,
			write: false,
			minify: false,
			target: 'node20',
			rolldownOptions: {
				output: {
					format: 'es',
					entryFileNames: FILE_NAME,
					codeSplitting: false,
					banner:
						'#!/usr/bin/env node\n// The MAC-token account service sandbox: node sandbox-server.mjs --help'
				}
			}
		}
	});
	const outputs = Array.isArray(output) ? output : [output];
	for (const result of outputs) {
		if (!('output' in result)) continue;
		const chunk = result.output.find((file) => file.fileName === FILE_NAME);
		if (chunk && chunk.type === 'chunk') return chunk.code;
	}
	throw new Error(`the build made no ${FILE_NAME}`);
}

/** @param {string} code */
export function sha256(code) {
	return createHash('sha256').update(code).digest('hex');
}

const VIRTUAL = 'virtual:sandbox-server';

/**
 * The site's build ships sandbox-server.mjs at its root, and the sandbox page imports
 * `virtual:sandbox-server` for its name, size and SHA-256. Bundled once per build.
 * @returns {import('vite').Plugin}
 */
export function sandboxServerAsset() {
	/** @type {Promise<string> | null} */
	let code = null;
	const bundled = () => (code ??= bundleSandboxServer());
	return {
		name: 'sandbox-server-asset',
		resolveId: (id) => (id === VIRTUAL ? `\0${VIRTUAL}` : null),
		load: {
			filter: { id: new RegExp(`^\\0${VIRTUAL}$`) },
			async handler() {
				const text = await bundled();
				return `export const FILE_NAME = ${JSON.stringify(FILE_NAME)};
export const SHA256 = ${JSON.stringify(sha256(text))};
export const BYTES = ${Buffer.byteLength(text)};`;
			}
		},
		async generateBundle() {
			if (this.environment.name !== 'client') return;
			this.emitFile({ type: 'asset', fileName: FILE_NAME, source: await bundled() });
		}
	};
}
