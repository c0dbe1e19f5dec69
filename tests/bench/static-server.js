// A static file server on 127.0.0.1 that answers the way GitHub Pages does: `/x` serves x.html (or
// x/index.html), unknown paths get 404.html, and text is gzip-compressed when the client accepts it.
// With a base path (a project site, `/<repo>`), the files are served under it, `/<repo>` redirects
// to `/<repo>/`, and every path outside it is a 404.
import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { gzipSync } from 'node:zlib';

/** @type {Record<string, string>} */
const TYPES = {
	'.html': 'text/html; charset=utf-8',
	'.js': 'text/javascript; charset=utf-8',
	'.mjs': 'text/javascript; charset=utf-8',
	'.css': 'text/css; charset=utf-8',
	'.json': 'application/json; charset=utf-8',
	'.webmanifest': 'application/manifest+json; charset=utf-8',
	'.txt': 'text/plain; charset=utf-8',
	'.svg': 'image/svg+xml',
	'.png': 'image/png',
	'.jpg': 'image/jpeg',
	'.webp': 'image/webp',
	'.ico': 'image/x-icon',
	'.woff2': 'font/woff2'
};
const COMPRESSIBLE = /^(?:text\/|application\/(?:json|manifest)|image\/svg)/;

/**
 * @param {string} file
 * @returns {Promise<boolean>}
 */
async function isFile(file) {
	try {
		return (await stat(file)).isFile();
	} catch {
		return false;
	}
}

/**
 * Serves `root` on an ephemeral loopback port.
 * @param {string} root the directory to serve
 * @param {Record<string, string>} [extra] URL paths served from other files (e.g. a bundle under test)
 * @param {{ basePath?: string }} [options] basePath: the path the site is served under, as in
 *   `/mac-token-playground` (the build's BASE_PATH); none by default
 * @returns {Promise<{ origin: string, close: () => Promise<void> }>}
 */
export async function serveStatic(root, extra = {}, { basePath = '' } = {}) {
	if (basePath !== '' && (!basePath.startsWith('/') || basePath.endsWith('/')))
		throw new Error(`basePath must start with / and not end with one; got "${basePath}"`);
	const base = resolve(root);
	/** @type {Map<string, Buffer>} */
	const gzipped = new Map();

	/**
	 * @param {string} pathname
	 * @returns {Promise<{ file: string, status: number } | null>}
	 */
	async function locate(pathname) {
		const mapped = extra[pathname];
		if (mapped !== undefined) return { file: mapped, status: 200 };
		if (basePath !== '') {
			if (!pathname.startsWith(`${basePath}/`)) return null;
			pathname = pathname.slice(basePath.length);
		}
		const wanted = resolve(base, `.${pathname}`);
		if (wanted !== base && !wanted.startsWith(base + sep)) return null;
		const candidates = pathname.endsWith('/')
			? [join(wanted, 'index.html')]
			: [wanted, `${wanted}.html`, join(wanted, 'index.html')];
		for (const candidate of candidates) {
			if (await isFile(candidate)) return { file: candidate, status: 200 };
		}
		const notFound = join(base, '404.html');
		return (await isFile(notFound)) ? { file: notFound, status: 404 } : null;
	}

	const server = createServer((request, response) => {
		void (async () => {
			try {
				const url = new URL(request.url ?? '/', 'http://127.0.0.1');
				if (basePath !== '' && url.pathname === basePath) {
					response.writeHead(301, { location: `${basePath}/${url.search}` }).end();
					return;
				}
				const found = await locate(decodeURIComponent(url.pathname));
				if (found === null) {
					response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
					return;
				}
				const type = TYPES[extname(found.file)] ?? 'application/octet-stream';
				/** @type {Buffer} */
				let body = await readFile(found.file);
				/** @type {Record<string, string>} */
				const headers = { 'content-type': type, 'cache-control': 'max-age=600' };
				const accepts = String(request.headers['accept-encoding'] ?? '');
				if (COMPRESSIBLE.test(type) && /\bgzip\b/.test(accepts)) {
					let packed = gzipped.get(found.file);
					if (packed === undefined) {
						packed = gzipSync(body);
						gzipped.set(found.file, packed);
					}
					body = packed;
					headers['content-encoding'] = 'gzip';
					headers.vary = 'accept-encoding';
				}
				headers['content-length'] = String(body.length);
				response.writeHead(found.status, headers);
				response.end(request.method === 'HEAD' ? undefined : body);
			} catch (error) {
				response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
			}
		})();
	});
	await new Promise((done, fail) => {
		server.once('error', fail);
		server.listen(0, '127.0.0.1', () => done(undefined));
	});
	const address = server.address();
	if (address === null || typeof address === 'string') throw new Error('no port');
	return {
		origin: `http://127.0.0.1:${address.port}`,
		close: () =>
			new Promise((done) => {
				server.closeAllConnections();
				server.close(() => done(undefined));
			})
	};
}
