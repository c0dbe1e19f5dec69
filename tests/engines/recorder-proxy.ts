// The site as WebKit sees it in the engines suite: the preview server's answers, passed through,
// with tests/engines/error-recorder.js loaded first in each HTML page. Classic WebDriver (all that
// WebKitGTK's driver speaks) has no console log, and a script run after the page has loaded would
// miss the errors of its start; MiniBrowser's own console-to-stdout setting is not applied to the
// window it opens for automation. The recorder is a file of this origin, so the site's CSP
// (script-src 'self') lets it run, and nothing else of the page changes.
import { readFileSync } from 'node:fs';
import http from 'node:http';

const RECORDER = readFileSync(new URL('./error-recorder.js', import.meta.url));
/** Its path on the proxy's origin, outside the site's base path. */
export const RECORDER_PATH = '/__engines/error-recorder.js';
const CHARSET = /<meta charset[^>]*>/i;

/** Serves `upstream` (an origin, e.g. http://127.0.0.1:4173) on 127.0.0.1:`port`. */
export async function startRecorderProxy(upstream: string, port: number): Promise<http.Server> {
	const server = http.createServer((request, response) => {
		if (request.url === RECORDER_PATH) {
			response.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' });
			response.end(RECORDER);
			return;
		}
		const headers = {
			...request.headers,
			host: new URL(upstream).host,
			'accept-encoding': 'identity'
		};
		const forward = http.request(
			new URL(request.url ?? '/', upstream),
			{ method: request.method, headers },
			(answer) => {
				const type = String(answer.headers['content-type'] ?? '');
				if (!type.startsWith('text/html')) {
					response.writeHead(answer.statusCode ?? 502, answer.headers);
					answer.pipe(response);
					return;
				}
				const chunks: Buffer[] = [];
				answer.on('data', (chunk: Buffer) => chunks.push(chunk));
				answer.on('end', () => {
					const html = Buffer.concat(chunks).toString('utf8');
					// After the charset declaration, which must stay within the first 1024 bytes.
					const tag = `<script src="${RECORDER_PATH}"></script>`;
					const withRecorder = CHARSET.test(html)
						? html.replace(CHARSET, (meta) => `${meta}${tag}`)
						: `${tag}${html}`;
					// Its length changed: sent without one, the body ends with the connection's chunks.
					const answerHeaders = { ...answer.headers };
					delete answerHeaders['content-length'];
					response.writeHead(answer.statusCode ?? 502, answerHeaders);
					response.end(withRecorder);
				});
			}
		);
		forward.on('error', (error) => {
			response.writeHead(502, { 'content-type': 'text/plain' });
			response.end(`recorder proxy: ${error.message}`);
		});
		request.pipe(forward);
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', resolve);
	});
	return server;
}
